import { ApiProperty } from '@nestjs/swagger';
import type { CtaRelation, TagExposureRule } from '../behaviour-tag.types';
import { CtaRelationDto, TagExposureRuleDto } from './behaviour-tag-body.dto';

/** One tag as `GET /behaviour-tags` lists it; every CTA id is a string. */
export class BehaviourTagRecordDto {
  @ApiProperty({ example: 'store-nudges' })
  name: string;

  @ApiProperty({ type: String, nullable: true, example: 'Any one store nudge shows, the rest hide; at most two resets a day' })
  description: string | null;

  @ApiProperty({ example: 1795372967296, description: 'epoch ms' })
  createdAt: number;

  @ApiProperty({ example: 'alice@example.com' })
  createdBy: string;

  @ApiProperty({ type: Number, nullable: true, example: 1795372967296, description: 'epoch ms; equals createdAt until the first update' })
  lastUpdatedAt: number | null;

  @ApiProperty({ type: String, nullable: true, example: 'alice@example.com' })
  lastUpdatedBy: string | null;

  @ApiProperty({ type: TagExposureRuleDto })
  exposureRule: TagExposureRule;

  @ApiProperty({ type: CtaRelationDto, description: 'ctaList ids are strings' })
  ctaRelation: CtaRelation;

  @ApiProperty({ type: [String], example: ['1'], description: 'CTA ids as strings, ascending' })
  linkedCtas: string[];

  @ApiProperty({ example: 'default' })
  tenantId: string;
}

export class BehaviourTagListDto {
  @ApiProperty({ type: [BehaviourTagRecordDto], description: 'sorted by name' })
  behaviourTags: BehaviourTagRecordDto[];
}
