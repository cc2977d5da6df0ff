import { Module } from '@nestjs/common';
import { CatalogueRevisionService } from './catalogue-revision.service';

@Module({
  providers: [CatalogueRevisionService],
  exports: [CatalogueRevisionService],
})
export class CatalogueModule {}
