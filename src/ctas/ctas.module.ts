import { Module } from '@nestjs/common';
import { BehaviourTagsModule } from '../behaviour-tags/behaviour-tags.module';
import { CatalogueModule } from '../catalogue/catalogue.module';
import { CohortsModule } from '../cohorts/cohorts.module';
import { EventsModule } from '../events/events.module';
import { CtaCatalogueReader } from './cta-catalogue.reader';
import { CtaListingService } from './cta-listing.service';
import { CtaRecords } from './cta-records.service';
import { CtaSummaries } from './cta-summaries.reader';
import { CtaValidationService } from './cta-validation.service';
import { CtasService } from './ctas.service';
import { TestCtasService } from './test-ctas.service';

/**
 * CTAs and their tags and test users (`ctas`, `cta_tags`, `cta_test_users`): CRUD, listing and filter
 * values; `CtasController`, `CtaFiltersController` and `TestCtasController` are mounted under the admin
 * prefix. Others read CTAs through `CtaRecords` (as the admin API shows them), `CtaCatalogueReader` (the SDK's) and
 * `CtaSummaries` (id, name and status, for reports).
 */
@Module({
  imports: [CatalogueModule, BehaviourTagsModule, CohortsModule, EventsModule],
  providers: [CtasService, CtaListingService, TestCtasService, CtaValidationService, CtaRecords, CtaCatalogueReader, CtaSummaries],
  exports: [CtasService, CtaListingService, TestCtasService, CtaValidationService, CtaRecords, CtaCatalogueReader, CtaSummaries],
})
export class CtasModule {}
