import { Controller, Get, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminEndpoint } from '../api-docs/endpoint';
import { API_TAG } from '../api-docs/api-tags';
import { DataEnvelope, dataEnvelope } from '../common/envelope';
import { TenantId } from '../common/request-headers';
import { CTA_ID_PARAM, EXAMPLE_NEEDS } from '../api-docs/flow-examples';
import { ExperimentReportDto } from './dto/experiment-report.dto';
import type { ExperimentReport } from './experiment-report';
import { EXPERIMENT_ERRORS, EXPERIMENT_REPORT_EXAMPLE } from './experiments-api-examples';
import { ExperimentsService } from './experiments.service';

/** `GET /ctas/{id}/experiment` (docs/decisions/0026-experiments.md). */
@ApiTags(API_TAG.insights)
@Controller()
export class ExperimentsController {
  constructor(private readonly experiments: ExperimentsService) {}

  @Get('ctas/:ctaId/experiment')
  @AdminEndpoint({
    summary: "Did the nudge work: the CTA's experiment, treatment against holdout",
    exampleNeeds: EXAMPLE_NEEDS.cta,
    description:
      'Per arm: users entered (a first machine of the CTA), exposed (a first action — the holdout variant records its actions where ' +
      'the treatment acts) and converted (exposed users whose machine reached the goal state, or reset from it, within windowDays ' +
      "of their exposure, on the server's clock), each user once whatever devices re-send; rate = converted / exposed. The uplift " +
      '(treatment rate − holdout rate, and relative to the holdout rate) with its 95% interval (unpooled standard error), the ' +
      'p-value of a two-sided two-proportion z-test (pooled standard error), significant when p < 0.05 with at least 100 exposed ' +
      'users in each arm (with that many: status "ready", significant or not; else "collecting"), and a sample-ratio check: a chi-square of the exposed counts against ' +
      'the configured split, suspect when its p-value is below 0.001 (the split is broken: do not trust the result). Counted when ' +
      'the deltas are stored, so exact at once on every instance. Formulas and a worked example: docs/experiments.md.',
    role: 'viewer',
    params: [CTA_ID_PARAM],
    answers: { data: ExperimentReportDto, description: 'the experiment and its result so far', example: EXPERIMENT_REPORT_EXAMPLE },
    errors: EXPERIMENT_ERRORS.report,
  })
  async report(@TenantId() tenantId: string, @Param('ctaId') ctaId: string): Promise<DataEnvelope<ExperimentReport>> {
    return dataEnvelope(await this.experiments.report(tenantId, ctaId));
  }
}
