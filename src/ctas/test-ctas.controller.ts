import { Body, Controller, Delete, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { API_TAG } from '../api-docs/api-tags';
import { ApiBadRequest } from '../common/api-error-responses';
import { ApiDataResponse, DataEnvelope, dataEnvelope, NULL_DATA } from '../common/envelope';
import { ErrorCode } from '../common/error-code';
import { OperatorUser, TenantId } from '../common/request-headers';
import { TestCtaBodyPipe } from './cta-body.pipe';
import { OPTIONAL_USER_HEADER, TENANT_HEADER, USER_HEADER } from '../common/api-headers';
import { ChangeOrigin } from '../audit/change-origin';
import { RequiresRole } from '../security/admin-roles';
import { FLOW_TEST_CTA_ID, FLOW_USER_ID, RULE_EXAMPLE } from './cta-api-examples';
import { CTA_ID_SCHEMA } from './dto/cta-record.dto';
import { CreateTestCtaDto } from './dto/test-cta-body.dto';
import { TestCtasService } from './test-ctas.service';

/** The example rule as the real admin panel's test-journey builder sends it. */
const { cohortEligibility: _everyone, ...PANEL_TEST_RULE } = {
  ...RULE_EXAMPLE,
  frequency: { session: RULE_EXAMPLE.frequency.session, window: RULE_EXAMPLE.frequency.window },
};

/** Test CTAs (docs/decisions/0005-test-ctas.md): temporary live CTAs served only to listed users; documented with the CTAs. */
@ApiTags(API_TAG.ctas)
@ApiHeader(TENANT_HEADER)
@Controller('ctas/test')
export class TestCtasController {
  constructor(private readonly testCtas: TestCtasService) {}

  @Post('create')
  @HttpCode(200)
  @RequiresRole('editor')
  @ApiOperation({
    summary: 'Create a test CTA (live at once, for the listed users only)',
    description:
      'A live CTA named `test-<id>` (team `test`) served by the SDK launch only to `userIds`, regardless of cohorts, ' +
      'until now + expiresInMinutes; never listed. `previousCtaId` naming a test CTA of the tenant deletes it in the same ' +
      "transaction; an unknown id or a normal CTA is ignored. The rule is checked as a CTA's, except that `cohortEligibility` " +
      'may be left out (stored as every user) and `frequency` may lack its lifetime cap (stored as lifeSpan limit 0, which ' +
      'devices do not check), as the real admin panel builds test journeys; a `ctaValidTill` sent is ignored.',
  })
  @ApiHeader(USER_HEADER)
  @ApiBody({
    type: CreateTestCtaDto,
    examples: {
      testCta: {
        summary: 'the example rule, for one user, for an hour',
        value: { userIds: [Number(FLOW_USER_ID)], expiresInMinutes: 60, rule: RULE_EXAMPLE },
      },
      panelTestJourney: {
        summary: 'as the admin panel builds it: no cohortEligibility, no lifetime cap',
        value: { userIds: [Number(FLOW_USER_ID)], expiresInMinutes: 30, rule: PANEL_TEST_RULE },
      },
    },
  })
  @ApiDataResponse(CTA_ID_SCHEMA, { description: 'the test CTA id', example: FLOW_TEST_CTA_ID })
  @ApiBadRequest(
    'CTA_CREATION_ERROR: invalid userIds (empty, over 1000, not 64-bit integers), expiresInMinutes outside 1-43200, ' +
      'a malformed previousCtaId or an invalid rule (the message lists every problem with its field path); INVALID_REQUEST: missing user header',
    [ErrorCode.CTA_CREATION_ERROR, 'userIds must be an array; expiresInMinutes must not be greater than 43200'],
    [ErrorCode.INVALID_REQUEST, "header 'user' is required"],
  )
  async create(
    @TenantId() tenantId: string,
    @OperatorUser() user: string,
    @Body(TestCtaBodyPipe) body: CreateTestCtaDto,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<DataEnvelope<number>> {
    return dataEnvelope(await this.testCtas.create(tenantId, user, body, origin));
  }

  @Delete(':ctaId')
  @RequiresRole('editor')
  @ApiHeader(OPTIONAL_USER_HEADER)
  @ApiOperation({ summary: 'Delete a test CTA (and its targeting)' })
  @ApiParam({
    name: 'ctaId',
    description: `a test CTA id (${FLOW_TEST_CTA_ID}: the test CTA example, created after the CTA example on an empty database)`,
    example: String(FLOW_TEST_CTA_ID),
  })
  @ApiDataResponse({ ...NULL_DATA, description: 'always null' }, { description: 'deleted', example: null })
  @ApiBadRequest('CTA_ID_INVALID: no test CTA of that id in the tenant (normal CTAs are not deleted here)', [
    ErrorCode.CTA_ID_INVALID,
    'CTA 99 does not exist',
  ])
  async delete(
    @TenantId() tenantId: string,
    @Param('ctaId') ctaId: string,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<DataEnvelope<null>> {
    await this.testCtas.delete(tenantId, ctaId, origin);
    return dataEnvelope(null);
  }
}
