import { Module } from '@nestjs/common';
import { CatalogueModule } from '../catalogue/catalogue.module';
import { CtaListingService } from './cta-listing.service';
import { CtasService } from './ctas.service';
import { TestCtasService } from './test-ctas.service';

/** CTA CRUD, listing and filter values; `CtasController`, `CtaFiltersController` and `TestCtasController` are mounted under the admin prefix. */
@Module({
  imports: [CatalogueModule],
  providers: [CtasService, CtaListingService, TestCtasService],
  exports: [CtasService, CtaListingService, TestCtasService],
})
export class CtasModule {}
