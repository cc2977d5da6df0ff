import { Module } from '@nestjs/common';
import { CtasModule } from '../ctas/ctas.module';
import { ApprovalsService } from './approvals.service';

/**
 * Approvals of CTAs' content (`cta_approvals`); `ApprovalsController` is mounted under the admin prefix.
 * The status service asks `ApprovalsService` before a CTA goes live; the ctas feature's records read approvals
 * through its port `CtaApprovalReader`, answered by `cta-approvals.ts` (bound in src/orchestration-ports.ts).
 */
@Module({
  imports: [CtasModule],
  providers: [ApprovalsService],
  exports: [ApprovalsService],
})
export class ApprovalsModule {}
