import { Module } from '@nestjs/common';
import { CatalogueModule } from '../catalogue/catalogue.module';
import { ExposurePolicyReader } from './exposure-policy.reader';
import { ExposurePolicyService } from './exposure-policy.service';

/** The exposure policy (docs/exposure-policy.md); `ExposurePolicyController` is mounted under the admin prefix. */
@Module({
  imports: [CatalogueModule],
  providers: [ExposurePolicyService, ExposurePolicyReader],
  exports: [ExposurePolicyService, ExposurePolicyReader],
})
export class ExposurePolicyModule {}
