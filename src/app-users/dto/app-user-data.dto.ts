import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { StateMachineDto } from '../../sdk/dto/snapshot-request.dto';
import type { StateMachine } from '../../sdk/snapshot-request';
import type { ExportedAction, ExportedCtaState, ExportedTagState, ExportedUserState } from '../../sdk/user-data';
import type { AppUserData, ErasedCounts } from '../app-users.service';

const EPOCH_MS_LIST = { type: 'array', items: { type: 'integer', format: 'int64' } } as const;

export class ExportedCtaStateDto implements ExportedCtaState {
  @ApiProperty({ description: 'the CTA id, as a string (as the launch shows it)' })
  ctaId: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(StateMachineDto) },
    description: 'the stored machines by key, contexts included',
  })
  activeStateMachines: Record<string, StateMachine>;

  @ApiProperty(EPOCH_MS_LIST)
  resetAt: number[];

  @ApiProperty(EPOCH_MS_LIST)
  actionDoneAt: number[];
}

class CtaResetAtDto {
  @ApiProperty()
  ctaId: string;

  @ApiProperty({ type: 'integer', format: 'int64' })
  resetAt: number;
}

export class ExportedTagStateDto implements ExportedTagState {
  @ApiProperty()
  behaviourTagName: string;

  @ApiProperty({ type: [String] })
  activeCtas: string[];

  @ApiProperty({ type: [CtaResetAtDto] })
  ctasResetAt: CtaResetAtDto[];
}

class ExportedActionDto implements ExportedAction {
  @ApiProperty({ description: 'the CTA id, as a string' })
  ctaId: string;

  @ApiProperty({ type: 'integer', format: 'int64', description: 'when the device reported the action (epoch ms)' })
  at: number;
}

export class ExportedUserStateDto implements ExportedUserState {
  @ApiProperty({ type: [ExportedCtaStateDto], description: 'by CTA id' })
  ctas: ExportedCtaStateDto[];

  @ApiProperty({ type: [ExportedTagStateDto], description: 'by tag name' })
  behaviourTags: ExportedTagStateDto[];

  @ApiProperty({
    type: [ExportedActionDto],
    description:
      "the user's newest actions across all CTAs (at most 1,000, newest first), which the exposure policy counts; kept after a CTA ends",
  })
  recentActions: ExportedActionDto[];
}

/** `GET /app-users/{userId}`. */
export class AppUserDataDto implements AppUserData {
  @ApiProperty({ description: 'the user id, canonical (a signed 64-bit decimal integer)' })
  userId: string;

  @ApiProperty({ type: ExportedUserStateDto, description: "the user's SDK state as stored, in the launch's shape" })
  state: ExportedUserStateDto;

  @ApiProperty({ type: [String], description: 'the static cohorts whose member list holds the user, by name' })
  cohorts: string[];

  @ApiProperty({ type: [Number], description: 'the ids of the test CTAs listing the user, ascending' })
  testCtas: number[];

  @ApiProperty({ type: [Number], description: 'the ids of the audit entries naming the user (test CTA userIds), ascending' })
  auditEntries: number[];
}

/** `DELETE /app-users/{userId}`: what the erase removed. */
export class ErasedCountsDto implements ErasedCounts {
  @ApiProperty({ description: 'whether the user had stored state' })
  state: boolean;

  @ApiProperty({ type: 'integer', description: 'static cohorts the user was removed from' })
  cohorts: number;

  @ApiProperty({ type: 'integer', description: 'test CTA lists the user was removed from (a test CTA left with nobody is deleted)' })
  testCtas: number;

  @ApiProperty({ type: 'integer', description: 'audit entries whose test CTA userIds named the user, now "erased"' })
  auditEntries: number;
}
