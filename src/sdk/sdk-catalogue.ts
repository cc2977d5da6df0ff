import type { BehaviourTagLinkRow, CatalogueTagRow } from '../behaviour-tags/behaviour-tag.reader';
import { CohortDefinitionRow, CohortTargeting } from '../cohorts/cohort-targeting';
import { keepsUserStateAt, RUNNING_STATUSES } from '../cta-lifecycle/cta-status-policy';
import type { CatalogueCtaRow, CatalogueTestUserRow } from '../ctas/cta-catalogue.reader';
import { ctaValidTill, frequencyAsRead } from '../ctas/cta-record';
import type { CtaExperiment } from '../ctas/cta-experiment';
import type { CtaRule } from '../rule/rule.types';
import type { CtaStatus } from '../cta-lifecycle/cta-statuses';
import type { ExperimentOfWrite } from '../insights/experiment-changes';
import { armOf, holdoutRule } from '../serving/experiment-arm';
import { ActiveExposurePolicy, activePolicy, ExposurePolicy, NO_EXPOSURE_POLICY } from '../exposure-policy/exposure-policy';
import { ServingAudience, servingBlocks, ServingCandidate } from '../serving/serving-decision';
import { StateCatalogue, UserStateJson } from './user-state';

/**
 * A tenant's catalogue as the SDK sees it (docs/decisions/0007-catalogue-cache-and-periodic-jobs.md,
 * docs/decisions/0006-user-state-merge.md, docs/decisions/0012-compatibility-with-existing-clients.md), built once per
 * catalogue revision. Each CTA's and tag's JSON is serialised here, once; a
 * launch only checks the time window, cohorts and test targeting against the
 * clock and concatenates the pre-serialised parts around the user's state.
 */

/** A CTA the catalogue holds (live, scheduled or paused), as the serving decision and the explain tool read it. */
export interface CatalogueCta extends ServingCandidate {
  priority: number;
  tagName: string | null;
  /** Its experiment (docs/experiments.md); null: none. */
  experiment: CtaExperiment | null;
}

/** One variant of a CTA's launch entry, encoded once. */
interface CtaEntry {
  /** `{"ctaId":"12","rule":{…},"activeStateMachines":` as UTF-8. */
  head: Buffer;
  /** `,"behaviourTagName":"…"}` */
  tail: Buffer;
  /** `head`, no user state, `tail`: the whole entry for a user without state for the CTA, one part to copy. */
  whole: Buffer;
}

interface ServableCta extends CatalogueCta, CtaEntry {
  /** The id as a decimal string, the key of the user's state. */
  key: string;
  /** With an experiment: the entry its holdout users get (the holdout variant's rule); else null. */
  holdout: CtaEntry | null;
}

interface StatefulCta {
  status: CtaStatus;
  startTime: number | null;
  isTest: boolean;
  expiresAt: number | null;
  stateMachineTTL: number;
}

interface ServableTag {
  name: string;
  /** `{"behaviourTagName":"…","exposureRule":{…,"ctasResetAt":` */
  head: Buffer;
  /** `},"ctaRelation":{"shownCta":…,"hideCta":…,"activeCtas":` */
  middle: Buffer;
  /** The whole entry for a user without state for the tag. */
  whole: Buffer;
}

/** The answer when api_version is absent or below 1 (docs/architecture.md, the launch). */
export const EMPTY_LAUNCH_RESPONSE = '{"data":{"ctas":null,"behaviourTags":null}}';

const utf8 = (text: string): Buffer => Buffer.from(text, 'utf8');
const DAY_MS = 86_400_000;
const RESPONSE_START = utf8('{"data":{"ctas":[');
const TAGS_START = utf8('],"behaviourTags":[');
const RESPONSE_END = utf8(']}}');
const COMMA = utf8(',');
const TAG_END = '}}';
const NO_CTA_STATE = '{},"resetAt":[],"actionDoneAt":[]';
const NO_TAG_LIST = '[]';

/**
 * Answers are cut from slabs of this size, as Node's own pool does for buffers under 4 KB:
 * one allocation every few launches instead of one each. A slab lives while any answer cut
 * from it is still being written.
 */
const SLAB_BYTES = 256 * 1024;
let slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
let slabUsed = 0;

function answerBuffer(length: number): Buffer {
  if (length > SLAB_BYTES / 4) {
    return Buffer.allocUnsafe(length);
  }
  if (slabUsed + length > SLAB_BYTES) {
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
    slabUsed = 0;
  }
  const buffer = slab.subarray(slabUsed, slabUsed + length);
  slabUsed += length;
  return buffer;
}

/**
 * Collects the response's parts, pre-encoded buffers and the user's small JSON
 * strings, and copies them once into one buffer: the bulk of a launch answer
 * (the rules) is never re-encoded.
 */
class ResponseWriter {
  private readonly parts: (Buffer | string)[] = [];
  private length = 0;

  add(part: Buffer | string): void {
    this.parts.push(part);
    this.length += typeof part === 'string' ? Buffer.byteLength(part) : part.length;
  }

  toBuffer(): Buffer {
    const output = answerBuffer(this.length);
    let offset = 0;
    for (const part of this.parts) {
      if (typeof part === 'string') {
        offset += output.write(part, offset);
      } else {
        // TypedArray#set: Buffer#copy's argument handling cost more than copying these parts.
        output.set(part, offset);
        offset += part.length;
      }
    }
    return output;
  }
}

/** `{"a":1}` → `{"a":1,` and `{}` → `{`: an object still open for one more key. */
function openObject(value: object): string {
  const json = JSON.stringify(value);
  return json === '{}' ? '{' : `${json.slice(0, -1)},`;
}

/**
 * The rule as devices get it: without `cohortEligibility`, with the derived
 * `ctaValidTill` after `stateMachineTTL` (where the example puts it), and
 * `frequency` carrying `lifespan` beside `lifeSpan` for older SDKs (docs/decisions/0012-compatibility-with-existing-clients.md).
 */
export function sdkRule(rule: CtaRule, ctaValidTill: number | null): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rule)) {
    if (key === 'cohortEligibility' || key === 'ctaValidTill') continue;
    result[key] = key === 'frequency' ? frequencyAsRead(value) : value;
    if (key === 'stateMachineTTL') result.ctaValidTill = ctaValidTill;
  }
  if (!('ctaValidTill' in result)) result.ctaValidTill = ctaValidTill;
  return result;
}

/** A CTA row as the serving decision reads it. */
export const catalogueCta = (row: CatalogueCtaRow, tagName: string | null): CatalogueCta => ({
  id: Number(row.id),
  priority: row.rule.priority,
  status: row.status,
  startTime: row.startTime,
  endTime: row.endTime,
  isTest: row.isTest,
  expiresAt: row.expiresAt,
  eligibility: row.rule.cohortEligibility,
  capExempt: row.capExempt,
  tagName,
  experiment: row.isTest ? null : row.experiment,
});

/** A CTA's launch entry for `rule` (as devices get it), its user state left for the launch to put in. */
function ctaEntry(id: number, rule: Record<string, unknown>, tagName: string | null): CtaEntry {
  const head = `{"ctaId":"${id}","rule":${JSON.stringify(rule)},"activeStateMachines":`;
  const tail = `,"behaviourTagName":${JSON.stringify(tagName)}}`;
  return { head: utf8(head), tail: utf8(tail), whole: utf8(head + NO_CTA_STATE + tail) };
}

/** Priority descending, then id: the order of the launch answer. */
export const launchOrder = (a: CatalogueCta, b: CatalogueCta): number => b.priority - a.priority || a.id - b.id;

export class TenantCatalogue implements StateCatalogue {
  /** The running CTAs (live, scheduled), in launch order: what a launch may serve. */
  private readonly servable: ServableCta[] = [];
  /** Every CTA held, the servable ones and the paused ones, in launch order. */
  private readonly held: CatalogueCta[] = [];
  private readonly stateful = new Map<string, StatefulCta>();
  private readonly tags = new Map<string, ServableTag>();
  /** The CTAs held with an experiment, by id: what a write counts the experiments of. */
  private readonly experiments = new Map<string, CatalogueCta>();
  /** User id → ids of the test CTAs that target the user. */
  private readonly testCtasByUser = new Map<string, Set<number>>();
  /** The cohorts a launch evaluates: those the servable CTAs name (docs/decisions/0008-cohorts.md). */
  readonly cohortTargeting: CohortTargeting;
  private readonly cohortDefinitions: CohortDefinitionRow[];
  /** The tenant's exposure cap, null when off (docs/exposure-policy.md): it changes with the catalogue's revision. */
  readonly exposurePolicy: ActiveExposurePolicy | null;

  constructor(
    ctas: CatalogueCtaRow[],
    testUsers: CatalogueTestUserRow[],
    links: BehaviourTagLinkRow[],
    tags: CatalogueTagRow[],
    cohorts: CohortDefinitionRow[] = [],
    exposurePolicy: ExposurePolicy = NO_EXPOSURE_POLICY,
    /** Whose catalogue: an experiment's buckets hash the tenant too. */
    private readonly tenantId = '',
  ) {
    this.exposurePolicy = activePolicy(exposurePolicy);
    const tagOfCta = new Map(links.map((link) => [Number(link.ctaId), link.tagName]));
    const testCtaIds = new Set<number>();
    for (const cta of ctas) {
      const id = Number(cta.id);
      this.stateful.set(String(id), {
        status: cta.status,
        startTime: cta.startTime,
        isTest: cta.isTest,
        expiresAt: cta.expiresAt,
        stateMachineTTL: cta.rule.stateMachineTTL,
      });
      if (cta.isTest) testCtaIds.add(id);
      const held = catalogueCta(cta, tagOfCta.get(id) ?? null);
      if (held.experiment) this.experiments.set(String(id), held);
      if (!RUNNING_STATUSES.includes(cta.status)) {
        this.held.push(held);
        continue;
      }
      const rule = sdkRule(cta.rule, ctaValidTill(cta));
      const servable: ServableCta = {
        ...held,
        ...ctaEntry(id, rule, held.tagName),
        key: String(id),
        // Rendered here, once per catalogue revision, like the treatment.
        holdout: held.experiment && ctaEntry(id, holdoutRule(rule as Pick<CtaRule, 'actions'>, held.experiment), held.tagName),
      };
      this.servable.push(servable);
      this.held.push(servable);
    }
    this.servable.sort(launchOrder);
    this.held.sort(launchOrder);
    const namedCohorts = new Set(
      this.servable.filter((cta) => !cta.isTest).flatMap((cta) => [...cta.eligibility.includes, ...cta.eligibility.excludes]),
    );
    this.cohortDefinitions = cohorts;
    this.cohortTargeting = new CohortTargeting(cohorts, namedCohorts);
    // Test users of every test CTA held: the launch serves the running ones, explain names the others.
    for (const { userId, ctaId } of testUsers) {
      if (!testCtaIds.has(Number(ctaId))) continue;
      let ids = this.testCtasByUser.get(userId);
      if (!ids) this.testCtasByUser.set(userId, (ids = new Set()));
      ids.add(Number(ctaId));
    }
    for (const tag of [...tags].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const { ctasResetAt: _ignored, ...exposureRule } = tag.exposureRule as unknown as Record<string, unknown>;
      const relation = { shownCta: tag.ctaRelation.shownCta, hideCta: tag.ctaRelation.hideCta };
      const head = `{"behaviourTagName":${JSON.stringify(tag.name)},"exposureRule":${openObject(exposureRule)}"ctasResetAt":`;
      const middle = `},"ctaRelation":${openObject(relation)}"activeCtas":`;
      this.tags.set(tag.name, {
        name: tag.name,
        head: utf8(head),
        middle: utf8(middle),
        whole: utf8(head + NO_TAG_LIST + middle + NO_TAG_LIST + TAG_END),
      });
    }
  }

  stateTtlOf(ctaId: string, now: number): number | undefined {
    const cta = this.stateful.get(ctaId);
    return cta && keepsUserStateAt(cta, now) ? cta.stateMachineTTL : undefined;
  }

  hasTag(name: string): boolean {
    return this.tags.has(name);
  }

  /** Every CTA held (live, scheduled, paused; test CTAs too), in launch order. */
  heldCtas(): readonly CatalogueCta[] {
    return this.held;
  }

  /** Whether any CTA held has an experiment: else a write counts none, and looks for none. */
  get hasExperiments(): boolean {
    return this.experiments.size > 0;
  }

  /** The experiment of CTA `ctaId` as a write of `userId`'s state counts it (insights/experiment-changes.ts); undefined: none. */
  experimentOfWrite(ctaId: string, userId: string): ExperimentOfWrite | undefined {
    const cta = this.experiments.get(ctaId);
    if (!cta?.experiment) return undefined;
    const { goal, windowDays } = cta.experiment;
    return { arm: this.armOf(cta, userId) === 'holdout' ? 1 : 0, goal: goal.state, windowMs: windowDays * DAY_MS };
  }

  /** The user's arm in `cta`'s experiment; null when it has none. */
  armOf(cta: CatalogueCta, userId: string): 'treatment' | 'holdout' | null {
    return cta.experiment && armOf(this.tenantId, cta.id, userId, cta.experiment.holdoutPercent);
  }

  /** What the serving decision reads of the user: their cohorts at this launch, the test CTAs that list them, whether they are over the cap. */
  audienceOf(userId: string, cohorts: readonly string[], overCap: boolean): ServingAudience {
    return { cohorts, testCtas: this.testCtasByUser.get(userId), overCap };
  }

  /**
   * The launch's cohort targeting widened to every cohort of the tenant: explain lists every cohort
   * the user is in, and says why any CTA, one the launch does not serve too, would or would not be
   * served. The launch's own cohorts are among them, so what it serves is decided alike.
   */
  everyCohortTargeting(): CohortTargeting {
    return new CohortTargeting(this.cohortDefinitions, new Set(this.cohortDefinitions.map((definition) => definition.name)));
  }

  /**
   * The launch answer (docs/architecture.md, the launch's render step) for a user whose state is
   * already pruned: eligible CTAs by priority, then id; the tags linking them, by name. `overCap`: the
   * user's actions reach the exposure cap (only exempt CTAs and test CTAs are served).
   */
  render(userId: string, cohorts: readonly string[], state: UserStateJson, now: number, overCap = false): Buffer {
    const audience = this.audienceOf(userId, cohorts, overCap);
    const usedTags = new Set<string>();
    const response = new ResponseWriter();
    response.add(RESPONSE_START);
    let first = true;
    for (const cta of this.servable) {
      if (servingBlocks(cta, audience, now) !== 0) continue;
      if (!first) response.add(COMMA);
      first = false;
      // Only a CTA with an experiment hashes the user id (docs/experiments.md).
      const entry: CtaEntry = cta.holdout !== null && this.armOf(cta, userId) === 'holdout' ? cta.holdout : cta;
      const userCta = state.cta(cta.key);
      if (userCta !== undefined) {
        response.add(entry.head);
        response.add(userCta);
        response.add(entry.tail);
      } else {
        response.add(entry.whole);
      }
      if (cta.tagName !== null) usedTags.add(cta.tagName);
    }
    response.add(TAGS_START);
    first = true;
    for (const tag of this.tags.values()) {
      if (!usedTags.has(tag.name)) continue;
      if (!first) response.add(COMMA);
      first = false;
      const tagState = state.tag(tag.name);
      if (tagState) {
        response.add(tag.head);
        response.add(tagState.ctasResetAt);
        response.add(tag.middle);
        response.add(`${tagState.activeCtas}${TAG_END}`);
      } else {
        response.add(tag.whole);
      }
    }
    response.add(RESPONSE_END);
    return response.toBuffer();
  }
}
