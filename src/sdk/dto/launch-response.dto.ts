import { ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { StateMachineDto } from './snapshot-request.dto';

/**
 * The launch answer (inside `{"data": …}`), built as JSON text by the catalogue, hence
 * no TypeScript type to implement. Every field is always sent; the document has never
 * marked them required, so they stay optional here.
 */

const EPOCH_MS_LIST = { type: 'array', items: { type: 'integer', format: 'int64' } } as const;
const OPEN_OBJECT = { type: 'object', additionalProperties: true } as const;

export class LaunchCtaDto {
  @ApiPropertyOptional()
  ctaId: string;

  @ApiPropertyOptional({
    ...OPEN_OBJECT,
    description: 'the rule without cohortEligibility, plus ctaValidTill and lifespan beside lifeSpan',
  })
  rule: object;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { $ref: getSchemaPath(StateMachineDto) } })
  activeStateMachines: Record<string, StateMachineDto>;

  @ApiPropertyOptional(EPOCH_MS_LIST)
  resetAt: number[];

  @ApiPropertyOptional(EPOCH_MS_LIST)
  actionDoneAt: number[];

  @ApiPropertyOptional({ type: String, nullable: true })
  behaviourTagName: string | null;
}

export class LaunchBehaviourTagDto {
  @ApiPropertyOptional()
  behaviourTagName: string;

  @ApiPropertyOptional({ ...OPEN_OBJECT, description: "the tag's exposure rule plus the user's ctasResetAt" })
  exposureRule: object;

  @ApiPropertyOptional({ ...OPEN_OBJECT, description: "shownCta and hideCta, plus the user's activeCtas" })
  ctaRelation: object;
}

/** Both lists are null when api_version is absent or below 1. */
export class LaunchResponseDto {
  @ApiPropertyOptional({ type: [LaunchCtaDto], nullable: true })
  ctas: LaunchCtaDto[] | null;

  @ApiPropertyOptional({ type: [LaunchBehaviourTagDto], nullable: true })
  behaviourTags: LaunchBehaviourTagDto[] | null;
}
