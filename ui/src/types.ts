/** What the admin API answers, as the service's own types say (type-only imports: nothing of the service is bundled). */
export type { AuditEntry, AuditPage } from '../../src/audit/audit.types';
export type { CtaInsights, InsightsDay } from '../../src/insights/insights.types';
export type { CtaRecord } from '../../src/ctas/cta-record';
export type { LaunchExplanation, CtaExplanation } from '../../src/explain/launch-explanation';
export type { DeviceView } from '../../src/explain/device-view';
export type { ArmReport, ExperimentReport } from '../../src/experiments/experiment-report';
export type { OperatorMay, Whoami } from '../../src/operator-view/whoami.types';

/** A page of `GET /ctas`. */
export interface CtaPage {
  ctas: import('../../src/ctas/cta-record').CtaRecord[];
  totalEntries: number;
  totalPages: number;
}
