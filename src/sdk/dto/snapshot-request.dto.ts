import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_CTA_SNAPSHOTS, MAX_SNAPSHOT_LIST_ENTRIES, MAX_STATE_MACHINES_PER_SNAPSHOT, MAX_TAG_SNAPSHOTS } from '../snapshot-request';

/**
 * Swagger descriptions of the SDK body (seed "Client snapshots"). The body is
 * validated by `parseSnapshotRequest` on the hot path, not by a ValidationPipe.
 */
export class StateMachineDto {
  @ApiProperty({ example: '2' })
  currentState: string;

  @ApiProperty({ example: 1795372967296, description: 'epoch ms, a JSON number' })
  lastTransitionAt: number;

  @ApiProperty({ example: 1795372967296, description: 'epoch ms, a JSON number' })
  createdAt: number;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, example: { storeId: 'store-77' } })
  context?: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'true deletes the stored machine of this key', example: false })
  reset?: boolean;
}

export class StateMachineSnapshotDto {
  @ApiProperty({ example: '1', description: 'a CTA id, as a string (or a number)' })
  ctaId: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/StateMachineDto' },
    maxProperties: MAX_STATE_MACHINES_PER_SNAPSHOT,
    description: `keyed by group key; at most ${MAX_STATE_MACHINES_PER_SNAPSHOT}`,
  })
  activeStateMachines: Record<string, StateMachineDto>;

  @ApiPropertyOptional({
    type: [Number],
    maxItems: MAX_SNAPSHOT_LIST_ENTRIES,
    example: [1795371000000],
    description: 'replaces the stored list when present',
  })
  resetAt?: number[];

  @ApiPropertyOptional({
    type: [Number],
    maxItems: MAX_SNAPSHOT_LIST_ENTRIES,
    example: [1795372967296],
    description: 'replaces the stored list when present',
  })
  actionDoneAt?: number[];
}

export class BehaviourTagSnapshotDto {
  @ApiProperty({ example: 'store-nudges' })
  behaviourTagName: string;

  @ApiPropertyOptional({
    description: 'only ctasResetAt is read (replaces the stored list when present)',
    example: { ctasResetAt: [{ ctaId: '1', resetAt: 1795371000000 }] },
  })
  exposureRule?: Record<string, unknown>;

  @ApiPropertyOptional({
    description: 'only activeCtas is read (replaces the stored list when present)',
    example: { activeCtas: ['1'] },
  })
  ctaRelation?: Record<string, unknown>;
}

export class SnapshotRequestDto {
  @ApiPropertyOptional({ type: [StateMachineSnapshotDto], maxItems: MAX_CTA_SNAPSHOTS })
  ctas?: StateMachineSnapshotDto[];

  @ApiPropertyOptional({ type: [BehaviourTagSnapshotDto], maxItems: MAX_TAG_SNAPSHOTS })
  behaviourTags?: BehaviourTagSnapshotDto[];
}
