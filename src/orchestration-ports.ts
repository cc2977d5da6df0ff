import type { Provider } from '@nestjs/common';
import { ctaApprovalReader } from './approvals/cta-approvals';
import { AuditedCtas } from './audit/audited-ctas';
import { TaggedCtas } from './behaviour-tags/tagged-ctas';
import { CohortCtas } from './cohorts/cohort-ctas';
import { CtaApprovalReader } from './ctas/cta-approval-reader';
import { cohortCtas, eventCtas, taggedCtas } from './ctas/cta-ports';
import { CtaSummaries } from './ctas/cta-summaries.reader';
import { EventCtas } from './events/event-ctas';
import { PendingInsightsStore } from './insights/pending-insights-store';
import { sdkPendingInsights } from './sdk/pending-insights';

/**
 * The ports: what a feature asks of one above it, declared in its own folder and answered here by the
 * feature that holds the data, so that imports run one way (docs/decisions/0027-one-way-features-and-ports.md).
 * The global core provides them to every feature.
 */
export const ORCHESTRATION_PORTS = [
  { provide: TaggedCtas, useValue: taggedCtas },
  { provide: CohortCtas, useValue: cohortCtas },
  { provide: EventCtas, useValue: eventCtas },
  { provide: AuditedCtas, useClass: CtaSummaries },
  { provide: CtaApprovalReader, useValue: ctaApprovalReader },
  { provide: PendingInsightsStore, useValue: sdkPendingInsights },
] satisfies Provider[];
