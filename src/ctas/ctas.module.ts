import { Module } from '@nestjs/common';
import { CatalogueModule } from '../catalogue/catalogue.module';
import { CohortsModule } from '../cohorts/cohorts.module';
import { EventsModule } from '../events/events.module';
import { CtaValidationService } from './cta-validation.service';
import { CtaListingService } from './cta-listing.service';
import { CtasService } from './ctas.service';
import { TestCtasService } from './test-ctas.service';

/** CTA CRUD, listing and filter values; `CtasController`, `CtaFiltersController` and `TestCtasController` are mounted under the admin prefix. */
@Module({
  imports: [CatalogueModule, CohortsModule, EventsModule],
  providers: [CtasService, CtaListingService, TestCtasService, CtaValidationService],
  exports: [CtasService, CtaListingService, TestCtasService, CtaValidationService],
})
export class CtasModule {}
