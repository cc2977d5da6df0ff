import { Module } from '@nestjs/common';
import { CatalogueModule } from '../catalogue/catalogue.module';
import { orchestrationRepositories } from '../database/orchestration-data-source';
import { BehaviourTagCtaEntity } from './behaviour-tag-cta.entity';
import { BehaviourTagEntity } from './behaviour-tag.entity';
import { BehaviourTagsService } from './behaviour-tags.service';

/** Behaviour tags; `BehaviourTagsController` is mounted under the admin prefix. */
@Module({
  imports: [CatalogueModule],
  providers: [...orchestrationRepositories(BehaviourTagEntity, BehaviourTagCtaEntity), BehaviourTagsService],
  exports: [BehaviourTagsService],
})
export class BehaviourTagsModule {}
