import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { invalidRequest } from '../common/domain-error';
import { CtasService } from '../ctas/ctas.service';
import { InsightsService } from '../insights/insights.service';
import { experimentReport, ExperimentReport } from './experiment-report';

/** `GET /ctas/{id}/experiment` (docs/decisions/0026-experiments.md): the CTA's experiment and its counts, tested. */
@Injectable()
export class ExperimentsService {
  constructor(
    private readonly ctas: CtasService,
    private readonly insights: InsightsService,
    private readonly clock: Clock,
  ) {}

  async report(tenantId: string, rawId: string): Promise<ExperimentReport> {
    // Unknown ids, test CTAs and other tenants' CTAs answer CTA_ID_INVALID, as the CTA read does.
    const cta = await this.ctas.get(tenantId, rawId);
    if (cta.experiment === null) {
      throw invalidRequest(
        `CTA ${cta.id} has no experiment: set "experiment" (holdoutPercent, goal) on a draft CTA to compare it with a holdout`,
      );
    }
    const started = cta.ctaStatus !== 'draft' && cta.startTime !== null && cta.startTime <= this.clock.now();
    const arms = await this.insights.experimentArms(tenantId, cta.id);
    return experimentReport(cta.id, cta.experiment, started ? cta.startTime : null, arms);
  }
}
