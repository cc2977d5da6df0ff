import { Module } from '@nestjs/common';
import { ApprovalsModule } from '../approvals/approvals.module';
import { CatalogueModule } from '../catalogue/catalogue.module';
import { CtasModule } from '../ctas/ctas.module';
import { CtaStatusService } from './cta-status.service';

/** The CTA status lifecycle; `CtaStatusController` is mounted under the admin prefix. */
@Module({
  imports: [CatalogueModule, CtasModule, ApprovalsModule],
  providers: [CtaStatusService],
  exports: [CtaStatusService],
})
export class CtaStatusModule {}
