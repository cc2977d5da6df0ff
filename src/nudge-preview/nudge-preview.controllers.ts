import { Controller, Get, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminEndpoint, Endpoint } from '../api-docs/endpoint';
import { API_TAG } from '../api-docs/api-tags';
import { DataEnvelope, dataEnvelope, NULL_DATA } from '../common/envelope';
import { ErrorCode } from '../common/error-code';
import { TenantId } from '../common/request-headers';
import { CheckedBody } from '../common/validation';
import {
  DEFAULT_PREVIEW_TTL_SECONDS,
  MAX_PREVIEW_TTL_SECONDS,
  NudgePreview,
  NudgePreviewDto,
  WriteNudgePreviewDto,
} from './dto/nudge-preview.dto';
import { PREVIEW_BODY_EXAMPLES, PREVIEW_ERRORS, PREVIEW_EXAMPLE, PREVIEW_ID_PARAM } from './nudge-preview-api-examples';
import { emptyPreviewFields } from './nudge-preview-rules';
import { NudgePreviewService } from './nudge-preview.service';

/** Writing a nudge preview (seed "Nudge preview (admin write)", docs/behaviour.md#nudge-previews), under the admin prefix. */
@ApiTags(API_TAG.nudgePreviews)
@Controller('nudge/preview')
export class NudgePreviewAdminController {
  constructor(private readonly previews: NudgePreviewService) {}

  @Post()
  @AdminEndpoint({
    summary: 'Create or replace a nudge preview',
    description: `Upsert by id. The preview reads until write time + ttl seconds (default ${DEFAULT_PREVIEW_TTL_SECONDS}, at most ${MAX_PREVIEW_TTL_SECONDS}), then reads as absent.`,
    role: 'editor',
    body: { type: WriteNudgePreviewDto, examples: PREVIEW_BODY_EXAMPLES },
    answers: { data: NULL_DATA, description: 'stored', example: null },
    errors: PREVIEW_ERRORS.write,
  })
  async write(
    @TenantId() tenantId: string,
    @CheckedBody(ErrorCode.INVALID_REQUEST, emptyPreviewFields) body: WriteNudgePreviewDto,
  ): Promise<DataEnvelope<null>> {
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
  @Endpoint({
    summary: 'Read a nudge preview',
    description: '`data` is null when there is no preview of this id or it has expired; `ttl` is the value written.',
    params: [PREVIEW_ID_PARAM],
    answers: { data: NudgePreviewDto, description: 'the preview, or null', example: PREVIEW_EXAMPLE, nullable: true },
    errors: PREVIEW_ERRORS.read,
  })
  async read(@TenantId() tenantId: string, @Param('id') id: string): Promise<DataEnvelope<NudgePreview | null>> {
    return dataEnvelope(await this.previews.read(tenantId, id));
  }
}
