import { Module } from '@nestjs/common';
import { CatalogueModule } from '../catalogue/catalogue.module';
import { CtasModule } from '../ctas/ctas.module';
import { AppUsersService } from './app-users.service';

/**
 * An app user's data, export and erase (docs/decisions/0017-user-data-export-and-erase.md); it owns no
 * table: `AppUsersController` (mounted under the admin prefix) goes through what the SDK state,
 * cohorts, test CTAs and audit features export.
 */
@Module({
  imports: [CatalogueModule, CtasModule],
  providers: [AppUsersService],
  exports: [AppUsersService],
})
export class AppUsersModule {}
