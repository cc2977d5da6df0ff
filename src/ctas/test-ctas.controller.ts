import { Body, Controller, Delete, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminEndpoint } from '../api-docs/endpoint';
import { API_TAG } from '../api-docs/api-tags';
import { OPTIONAL_USER_HEADER, USER_HEADER } from '../common/api-headers';
import { DataEnvelope, dataEnvelope, NULL_DATA } from '../common/envelope';
import { TenantId } from '../common/request-headers';
import { OperatorUser } from '../security/operator';
import { ChangeOrigin } from '../audit/change-origin';
import { TestCtaBodyPipe } from './cta-body.pipe';
import { TEST_CTA_BODY_EXAMPLES, TEST_CTA_ERRORS, TEST_CTA_ID_PARAM } from './cta-api-examples';
import { FLOW_TEST_CTA_ID, EXAMPLE_NEEDS } from '../api-docs/flow-examples';
import { CTA_ID_SCHEMA } from './dto/cta-record.dto';
import { CreateTestCtaDto } from './dto/test-cta-body.dto';
import { TestCtasService } from './test-ctas.service';

/** Test CTAs (docs/decisions/0005-test-ctas.md): temporary live CTAs served only to listed users; documented with the CTAs. */
@ApiTags(API_TAG.ctas)
@Controller('ctas/test')
export class TestCtasController {
  constructor(private readonly testCtas: TestCtasService) {}

  @Post('create')
  @AdminEndpoint({
    summary: 'Create a test CTA (live at once, for the listed users only)',
    description:
      'A live CTA named `test-<id>` (team `test`) served by the SDK launch only to `userIds`, regardless of cohorts, ' +
      'until now + expiresInMinutes; never listed. `previousCtaId` naming a test CTA of the tenant deletes it in the same ' +
      "transaction; an unknown id or a normal CTA is ignored. The rule is checked as a CTA's, except that `cohortEligibility` " +
      'may be left out (stored as every user) and `frequency` may lack its lifetime cap (stored as lifeSpan limit 0, which ' +
      'devices do not check), as the real admin panel builds test journeys; a `ctaValidTill` sent is ignored.',
    role: 'editor',
    headers: [USER_HEADER],
    body: { type: CreateTestCtaDto, examples: TEST_CTA_BODY_EXAMPLES },
    answers: { data: CTA_ID_SCHEMA, description: 'the test CTA id', example: FLOW_TEST_CTA_ID },
    errors: TEST_CTA_ERRORS.create,
  })
  async create(
    @TenantId() tenantId: string,
    @OperatorUser() user: string,
    @Body(TestCtaBodyPipe) body: CreateTestCtaDto,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<DataEnvelope<number>> {
    return dataEnvelope(await this.testCtas.create(tenantId, user, body, origin));
  }

  @Delete(':ctaId')
  @AdminEndpoint({
    summary: 'Delete a test CTA (and its targeting)',
    exampleNeeds: EXAMPLE_NEEDS.testCta,
    role: 'editor',
    params: [TEST_CTA_ID_PARAM],
    headers: [OPTIONAL_USER_HEADER],
    answers: { data: { ...NULL_DATA, description: 'always null' }, description: 'deleted', example: null },
    errors: TEST_CTA_ERRORS.delete,
  })
  async delete(
    @TenantId() tenantId: string,
    @Param('ctaId') ctaId: string,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<DataEnvelope<null>> {
    await this.testCtas.delete(tenantId, ctaId, origin);
    return dataEnvelope(null);
  }
}
