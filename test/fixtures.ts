import { CREATE_TAG_EXAMPLE } from '../src/behaviour-tags/behaviour-tag-api-examples';
import { CREATE_EXAMPLE } from '../src/api-docs/flow-examples';
import { deltaExample, EXAMPLE_TIME, launchExample } from '../src/sdk/sdk-api-examples';
import type { StateMachine } from '../src/sdk/snapshot-request';
import type { CreateBehaviourTagDto, UpdateBehaviourTagDto } from '../src/behaviour-tags/dto/behaviour-tag-body.dto';
import type { CtaCreateBody } from './admin-client';
import type { TestApp } from './harness';

export { EXAMPLE_TIME };
export type { StatusAction } from '../src/cta-lifecycle/cta-transitions';

/** A CTA id as tests send it: the API takes numbers and numeric strings. */
export type CtaId = string | number;

/** A body of its route's type (the typed clients take it) whose fields a test may still read and change freely. */
export type AsSent<Body> = Body & Record<string, any>;

const copy = <T>(value: T): T => structuredClone(value);

/**
 * The example bodies Swagger shows (src/…/*-api-examples.ts), as fresh copies a test may change
 * without touching the document the app serves.
 */
export const examples = {
  rule: (): Record<string, any> => copy(CREATE_EXAMPLE.rule),
  delta: (ctaId: string): any => copy(deltaExample(ctaId)),
  launch: (ctaId: string): any => copy(launchExample(ctaId)),
  tag: copy(CREATE_TAG_EXAMPLE) as Record<string, any> & typeof CREATE_TAG_EXAMPLE,
};

let sequence = 0;

/** A valid CTA create body (the example's rule), with a fresh name unless given. */
export const ctaBody = (fields: Record<string, unknown> = {}): AsSent<CtaCreateBody> => ({
  name: `cta-${++sequence}`,
  description: 'e2e',
  tags: ['onboarding', 'store'],
  team: 'growth',
  startTime: null,
  endTime: null,
  rule: examples.rule(),
  ...fields,
});

/** A rule as the admin API reads it back: `frequency.lifespan` beside `lifeSpan` (equal) and the derived `ctaValidTill`. */
export const ruleAsRead = (rule: Record<string, any>, ctaValidTill: number | null = null): Record<string, any> => ({
  ...rule,
  frequency: { ...rule.frequency, lifespan: rule.frequency.lifeSpan },
  ctaValidTill,
});

/** The example tag's relation: any one linked CTA shows, the rest hide. */
const exampleRelation = (): Record<string, any> => copy(CREATE_TAG_EXAMPLE.ctaRelation);

/** The example tag named `name`, linking `linkedCtas` under `ctaRelation` (default the example's). */
export const tagBody = (name: string, linkedCtas: CtaId[] = [], ctaRelation: unknown = exampleRelation()): AsSent<CreateBehaviourTagDto> =>
  // `ctaRelation` may be one the API refuses: typed as the DTO's for the client, sent as given.
  ({ ...copy(CREATE_TAG_EXAMPLE), behaviourTagName: name, ctaRelation, linkedCtas }) as AsSent<CreateBehaviourTagDto>;

/** The same body for an update (no name in it). */
export const tagUpdateBody = (linkedCtas: CtaId[] = [], ctaRelation: unknown = exampleRelation()): AsSent<UpdateBehaviourTagDto> => {
  const { behaviourTagName: _name, ...body } = tagBody('', linkedCtas, ctaRelation);
  return body;
};

/** A device's state machine, as the SDK sends it: created when it last moved unless `fields` say otherwise. */
export const machine = (currentState = '1', at = EXAMPLE_TIME, fields: Record<string, unknown> = {}): StateMachine => ({
  currentState,
  lastTransitionAt: at,
  createdAt: at,
  ...fields,
});

/** Moves the app's clock to a minute after EXAMPLE_TIME, where the examples' state machines are fresh. */
export function runClockAfterExamples(api: TestApp): void {
  api.clock.advance(EXAMPLE_TIME + 60_000 - api.clock.now());
}

export const sdkHeaders = (tenantId: string, userId: string, apiVersion: string | null = '1'): Record<string, string> => ({
  'x-tenant-id': tenantId,
  'auth-userid': userId,
  ...(apiVersion === null ? {} : { api_version: apiVersion }),
  app_version: '5.2.0',
  package_name: 'com.example.app',
  codepush_version: 'v7',
});
