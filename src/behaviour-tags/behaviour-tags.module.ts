import { Module } from '@nestjs/common';
import { CatalogueModule } from '../catalogue/catalogue.module';
import { BehaviourTagReader } from './behaviour-tag.reader';
import { BehaviourTagsService } from './behaviour-tags.service';

/**
 * Behaviour tags and their links to CTAs (`behaviour_tags`, `behaviour_tag_ctas`);
 * `BehaviourTagsController` is mounted under the admin prefix. Others read them through `BehaviourTagReader`.
 */
@Module({
  imports: [CatalogueModule],
  providers: [BehaviourTagsService, BehaviourTagReader],
  exports: [BehaviourTagsService, BehaviourTagReader],
})
export class BehaviourTagsModule {}
