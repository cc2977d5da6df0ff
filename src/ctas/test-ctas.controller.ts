import { Controller, Delete, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { DataEnvelope, dataEnvelope, dataEnvelopeSchema, ErrorEnvelopeDto } from '../common/envelope';
import { ErrorCode } from '../common/error-code';
import { OperatorUser, TenantId } from '../common/request-headers';
import { ValidBody } from '../common/validation';
import { OPTIONAL_USER_HEADER, TENANT_HEADER, USER_HEADER } from '../common/api-headers';
import { ChangeOrigin } from '../audit/change-origin';
import { RequiresRole } from '../security/admin-roles';
import { RULE_EXAMPLE } from './cta-api-examples';
import { CreateTestCtaDto } from './dto/test-cta-body.dto';
import { TestCtasService } from './test-ctas.service';

/** Test CTAs (DESIGN §8): temporary live CTAs served only to listed users. */
@ApiTags('Test CTAs')
@ApiHeader(TENANT_HEADER)
@Controller('ctas/test')
export class TestCtasController {
  constructor(private readonly testCtas: TestCtasService) {}

  @Post('create')
  @HttpCode(200)
  @RequiresRole('editor')
  @ApiOperation({
    summary: 'Create a test CTA',
    description:
      'A live CTA named `test-<id>` (team `test`) served by the SDK launch only to `userIds`, regardless of cohorts, ' +
      'until now + expiresInMinutes; never listed. `previousCtaId` naming a test CTA of the tenant deletes it in the same ' +
      'transaction; an unknown id or a normal CTA is ignored.',
  })
  @ApiHeader(USER_HEADER)
  @ApiBody({ type: CreateTestCtaDto, examples: { testCta: { value: { userIds: [1234567890123], expiresInMinutes: 60, rule: RULE_EXAMPLE } } } })
  @ApiOkResponse({ description: 'the test CTA id', schema: dataEnvelopeSchema({ type: 'integer', format: 'int64' }, 42) })
  @ApiBadRequestResponse({
    type: ErrorEnvelopeDto,
    description:
      'CTA_CREATION_ERROR: invalid userIds (empty, over 1000, not 64-bit integers), expiresInMinutes outside 1-43200, ' +
      'a malformed previousCtaId or an invalid rule (the message names the field); INVALID_REQUEST: missing user header',
  })
  async create(
    @TenantId() tenantId: string,
    @OperatorUser() user: string,
    @ValidBody(ErrorCode.CTA_CREATION_ERROR) body: CreateTestCtaDto,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<DataEnvelope<number>> {
    return dataEnvelope(await this.testCtas.create(tenantId, user, body, origin));
  }

  @Delete(':ctaId')
  @RequiresRole('editor')
  @ApiHeader(OPTIONAL_USER_HEADER)
  @ApiOperation({ summary: 'Delete a test CTA (and its targeting)' })
  @ApiParam({ name: 'ctaId', example: '42' })
  @ApiOkResponse({ description: 'deleted', schema: dataEnvelopeSchema({ type: 'object', nullable: true, description: 'always null' }, null) })
  @ApiBadRequestResponse({ type: ErrorEnvelopeDto, description: 'CTA_ID_INVALID: no test CTA of that id in the tenant (normal CTAs are not deleted here)' })
  async delete(@TenantId() tenantId: string, @Param('ctaId') ctaId: string, @ChangeOrigin() origin: ChangeOrigin): Promise<DataEnvelope<null>> {
    await this.testCtas.delete(tenantId, ctaId, origin);
    return dataEnvelope(null);
  }
}
