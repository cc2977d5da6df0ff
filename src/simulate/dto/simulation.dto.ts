import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions, getSchemaPath } from '@nestjs/swagger';
import { StateMachineDto } from '../../sdk/dto/snapshot-request.dto';
import { EXPERIMENT_ARMS, ExperimentArm } from '../../serving/experiment-arm';
import { CreateCtaDto } from '../../ctas/dto/cta-body.dto';
import {
  ACTION_NOT_SHOWN,
  DEFAULT_ENGINE,
  DEVICE_ENGINES,
  DeviceEngine,
  JourneyStep,
  SKIP_CODES,
  StepAction,
  StepSkip,
} from '../journey-simulator';
import type { Simulation } from '../simulate.service';
import { MAX_EVENT_NAME_LENGTH, MAX_SIMULATED_EVENTS } from '../simulate-request';

/**
 * The body and answer of `POST /ctas/simulate`, for the API document; the body is checked by
 * `parseSimulateRequest`, which names every problem at its path.
 */

const EPOCH_MS = { type: 'integer', format: 'int64', description: 'epoch milliseconds' } as const;
const EPOCH_MS_LIST = { type: 'array', items: EPOCH_MS } as const;

export class CtaByIdDto {
  @ApiProperty({ type: 'integer', format: 'int64', description: 'a CTA of the tenant (its stored rule and ctaValidTill are run)' })
  id: number;
}

export class SimulatedStateDto {
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(StateMachineDto) },
    description: 'machineId → machine, as a launch hands them to the device (lastTransitionAt defaults to createdAt)',
  })
  activeStateMachines?: Record<string, StateMachineDto>;

  @ApiPropertyOptional({ ...EPOCH_MS_LIST, description: 'resets of earlier sessions' })
  resetAt?: number[];

  @ApiPropertyOptional({ ...EPOCH_MS_LIST, description: 'actions of earlier sessions' })
  actionDoneAt?: number[];
}

export class SimulatedEventDto {
  @ApiProperty({ minLength: 1, maxLength: MAX_EVENT_NAME_LENGTH })
  eventName: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: "the event's properties, as the app sends them" })
  properties?: Record<string, unknown>;

  @ApiPropertyOptional({ ...EPOCH_MS, description: 'when it happens (non-decreasing); default now + the index in ms' })
  at?: number;

  @ApiPropertyOptional({ description: "the device's app version: it overwrites the event's app_version property" })
  appVersion?: string;

  @ApiPropertyOptional({ description: "the device's package name: it overwrites the event's app_name property" })
  packageName?: string;

  @ApiPropertyOptional({ description: "the device's platform: it overwrites the event's platform property" })
  platform?: string;
}

export class SimulateRequestDto {
  @ApiProperty({
    oneOf: [{ $ref: getSchemaPath(CreateCtaDto) }, { $ref: getSchemaPath(CtaByIdDto) }],
    description: 'a CTA create body (checked as create checks it; its name need not be free), or {"id": n} for a CTA of the tenant',
  })
  cta: CreateCtaDto | CtaByIdDto;

  @ApiPropertyOptional({ type: SimulatedStateDto, description: "the user's state of the CTA before the events (default: none)" })
  state?: SimulatedStateDto;

  @ApiProperty({ type: [SimulatedEventDto], minItems: 1, maxItems: MAX_SIMULATED_EVENTS })
  events: SimulatedEventDto[];

  @ApiPropertyOptional({
    enum: DEVICE_ENGINES,
    default: DEFAULT_ENGINE,
    description:
      'the device engine to follow. `newest` (what devices run from now on): the one-action-per-event gate is the ' +
      "engine's own flag, cleared at every app event, so an event's own `actionDone` property does not matter. " +
      '`legacy` (the engine of 2026-11-25): the gate reads `actionDone` on the event object, so an app event carrying ' +
      '`actionDone: true` makes the device pass over conditions leading to a state with an action. Filters and ' +
      'group-by keys read events alike in both. Any other value: 400 INVALID_REQUEST naming `engine`',
  })
  engine?: DeviceEngine;

  @ApiPropertyOptional({
    enum: EXPERIMENT_ARMS,
    default: 'treatment',
    description:
      "the arm of the CTA's experiment to run (docs/experiments.md): `holdout` runs the holdout variant — the same journey, " +
      "every action replaced by a NUDGE_ACTION emitting the experiment's holdoutEvent — and needs a CTA with an experiment. " +
      'Any other value: 400 INVALID_REQUEST naming `arm`',
  })
  arm?: ExperimentArm;
}

/** Nullable objects are written inline: OpenAPI 3.0 admits no null for a $ref, even under allOf. */
const STEP_ACTION_SCHEMA: ApiPropertyOptions = {
  type: 'object',
  nullable: true,
  required: ['actionId', 'type', 'shown'],
  properties: {
    actionId: { type: 'string' },
    type: { type: 'string', description: 'the action type: NUDGE_UI, POPUP, NUDGE_ACTION or TOOLTIP' },
    shown: {
      type: 'boolean',
      description: 'NUDGE_UI and POPUP show once every contextParams key is in the context; NUDGE_ACTION emits template.eventName',
    },
    reason: {
      type: 'string',
      enum: [...ACTION_NOT_SHOWN],
      description: 'why it did not show (it is recorded in actionDoneAt all the same)',
    },
  },
};

const STEP_SKIP_SCHEMA: ApiPropertyOptions = {
  type: 'object',
  nullable: true,
  required: ['code', 'message'],
  properties: {
    code: { type: 'string', enum: [...SKIP_CODES] },
    message: { type: 'string' },
    cap: { type: 'string', enum: ['lifeSpan', 'window', 'session'], description: 'the cap reached (FREQUENCY_REACHED)' },
  },
};

export class JourneyStepDto implements JourneyStep {
  @ApiProperty({ description: "the event's index in the request" })
  event: number;

  @ApiProperty()
  eventName: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'the group-by values joined with "-", else the CTA id ("$ctaId" for a body, which has no id yet); null when no machine was chosen',
  })
  machineId: string | null;

  @ApiProperty({ type: String, nullable: true, description: "the machine's state before the event" })
  from: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'the state after the event (the state entered, also when it resets the machine)',
  })
  to: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'JSON path of the condition taken, e.g. rule.stateTransition.app_open.0[1]' })
  condition: string | null;

  @ApiProperty({ ...STEP_ACTION_SCHEMA, description: 'the action of the state entered, if it has one' })
  action: StepAction | null;

  @ApiProperty({ description: 'the state entered is in resetStates: the machine is deleted and one reset recorded' })
  reset: boolean;

  @ApiProperty({ ...STEP_SKIP_SCHEMA, description: 'why the CTA did not move a machine; null when a condition was taken' })
  skipped: StepSkip | null;

  @ApiPropertyOptional({ enum: [true], description: 'the machine was created (state "0") during this event and is still held' })
  created?: true;

  @ApiPropertyOptional({ enum: [true], description: 'the machine was deleted without a reset: its stateMachineTTL ran out' })
  deleted?: true;
}

export class SimulatedFinalStateDto {
  @ApiProperty({ type: 'object', additionalProperties: { $ref: getSchemaPath(StateMachineDto) } })
  activeStateMachines: Simulation['state']['activeStateMachines'];

  @ApiProperty({ ...EPOCH_MS_LIST, description: 'stored resets and those of this session' })
  resetAt: number[];

  @ApiProperty({ ...EPOCH_MS_LIST, description: 'stored actions and those of this session, shown or not' })
  actionDoneAt: number[];
}

export class SimulationDto implements Simulation {
  @ApiProperty({ type: [JourneyStepDto] })
  steps: JourneyStepDto[];

  @ApiProperty({ type: SimulatedFinalStateDto, description: 'the CTA as the device holds it after the last event' })
  state: SimulatedFinalStateDto;
}
