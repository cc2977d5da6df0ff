import { Module } from '@nestjs/common';
import { CatalogueModule } from '../catalogue/catalogue.module';
import { CtaStatusService } from './cta-status.service';

/** The CTA status lifecycle; `CtaStatusController` is mounted under the admin prefix. */
@Module({
  imports: [CatalogueModule],
  providers: [CtaStatusService],
  exports: [CtaStatusService],
})
export class CtaStatusModule {}
