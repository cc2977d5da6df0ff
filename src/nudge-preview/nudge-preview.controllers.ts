import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { API_TAG } from '../api-docs/api-tags';
import { ApiBadRequest, BAD_TENANT_EXAMPLE } from '../common/api-error-responses';
import { TENANT_HEADER } from '../common/api-headers';
import { ApiDataResponse, DataEnvelope, dataEnvelope, NULL_DATA } from '../common/envelope';
import { ErrorCode } from '../common/error-code';
import { TenantId } from '../common/request-headers';
import { ValidBody } from '../common/validation';
import {
  DEFAULT_PREVIEW_TTL_SECONDS,
  MAX_PREVIEW_TTL_SECONDS,
  NudgePreview,
  NudgePreviewDto,
  WriteNudgePreviewDto,
} from './dto/nudge-preview.dto';
import { NudgePreviewService } from './nudge-preview.service';
import { RequiresRole } from '../security/admin-roles';

const PREVIEW: NudgePreview = {
  id: 'spring-sale-banner',
  template: '<div class="banner">Spring sale 🌸</div>',
  tenantId: 'default',
  ttl: 600,
};

/** Writing a nudge preview (seed "Nudge preview (admin write)", docs/behaviour.md#nudge-previews), under the admin prefix. */
@ApiTags(API_TAG.nudgePreviews)
@Controller('nudge/preview')
export class NudgePreviewAdminController {
  constructor(private readonly previews: NudgePreviewService) {}

  @Post()
  @RequiresRole('editor')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create or replace a nudge preview',
    description: `Upsert by id. The preview reads until write time + ttl seconds (default ${DEFAULT_PREVIEW_TTL_SECONDS}, at most ${MAX_PREVIEW_TTL_SECONDS}), then reads as absent.`,
  })
  @ApiHeader(TENANT_HEADER)
  @ApiBody({
    type: WriteNudgePreviewDto,
    examples: {
      banner: { summary: 'a banner to preview for 10 minutes', value: { id: PREVIEW.id, template: PREVIEW.template, ttl: PREVIEW.ttl } },
    },
  })
  @ApiDataResponse(NULL_DATA, { description: 'stored', example: null })
  @ApiBadRequest(
    'NUDGE_PREVIEW_TEMPLATE_NOT_FOUND_EXCEPTION: id or template null, missing or empty (the message names it); ' +
      'INVALID_REQUEST: any other invalid field (e.g. ttl not an integer in 1-2592000; every problem listed), malformed x-tenant-id, malformed JSON',
    [ErrorCode.NUDGE_PREVIEW_TEMPLATE_NOT_FOUND_EXCEPTION, 'template must not be null or empty'],
    [ErrorCode.INVALID_REQUEST, 'id must be a string; ttl must not be less than 1'],
  )
  async write(@TenantId() tenantId: string, @ValidBody(ErrorCode.INVALID_REQUEST) body: WriteNudgePreviewDto): Promise<DataEnvelope<null>> {
    await this.previews.write(tenantId, body);
    return dataEnvelope(null);
  }
}

/** Reading a nudge preview (seed "Get nudge preview", docs/behaviour.md#nudge-previews), under the SDK prefix. */
@ApiTags(API_TAG.sdk)
@Controller('nudge/preview')
export class NudgePreviewSdkController {
  constructor(private readonly previews: NudgePreviewService) {}

  @Get(':id')
  @ApiOperation({
    summary: 'Read a nudge preview',
    description: '`data` is null when there is no preview of this id or it has expired; `ttl` is the value written.',
  })
  @ApiParam({
    name: 'id',
    description: 'the preview id, URL-encoded (spring-sale-banner: the preview the write example stores)',
    example: PREVIEW.id,
  })
  @ApiHeader(TENANT_HEADER)
  @ApiDataResponse(NudgePreviewDto, { description: 'the preview, or null', example: PREVIEW, nullable: true })
  @ApiBadRequest('INVALID_REQUEST: malformed x-tenant-id', BAD_TENANT_EXAMPLE)
  async read(@TenantId() tenantId: string, @Param('id') id: string): Promise<DataEnvelope<NudgePreview | null>> {
    return dataEnvelope(await this.previews.read(tenantId, id));
  }
}
