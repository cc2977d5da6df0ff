import { Module } from '@nestjs/common';
import { CtasModule } from '../ctas/ctas.module';
import { InsightFold } from './insight-fold.service';
import { InsightsService } from './insights.service';

/**
 * Campaign insights (`insight_days`, `insight_months`, `insight_ctas`, `insight_states`;
 * docs/decisions/0018-campaign-insights.md); `InsightsController` is mounted under the admin prefix. The SDK's
 * state writes count through insight-changes.ts and insight-pending.ts and keep each user's pending counts
 * in the user's own row; the fold (`InsightFold`, a periodic job) takes them through the port `PendingInsightsStore`, which the SDK answers.
 */
@Module({
  imports: [CtasModule],
  providers: [InsightsService, InsightFold],
  exports: [InsightsService, InsightFold],
})
export class InsightsModule {}
