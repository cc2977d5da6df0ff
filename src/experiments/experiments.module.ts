import { Module } from '@nestjs/common';
import { CtasModule } from '../ctas/ctas.module';
import { InsightsModule } from '../insights/insights.module';
import { ExperimentsService } from './experiments.service';

/**
 * The experiment report (docs/decisions/0026-experiments.md); `ExperimentsController` is mounted under the
 * admin prefix. Owns no table: the experiment is a field of the CTA, and its counts are the insights'.
 */
@Module({
  imports: [CtasModule, InsightsModule],
  providers: [ExperimentsService],
  exports: [ExperimentsService],
})
export class ExperimentsModule {}
