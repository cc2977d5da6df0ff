import { Module } from '@nestjs/common';
import { CtasModule } from '../ctas/ctas.module';
import { InsightFold } from './insight-fold.service';
import { InsightsService } from './insights.service';

/**
 * Campaign insights (`insight_pending`, `insight_days`, `insight_ctas`, `insight_states`;
 * docs/decisions/0018-campaign-insights.md); `InsightsController` is mounted under the admin prefix. The SDK's
 * state writes append pending rows through `insightStatements` (insight-pending.ts), in their own transaction.
 */
@Module({
  imports: [CtasModule],
  providers: [InsightsService, InsightFold],
  exports: [InsightsService, InsightFold],
})
export class InsightsModule {}
