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

/**
 * Where an entry lies in the catalogue's answer bytes (`TenantCatalogue.answerBytes`): from `from` (the
 * comma before it; its start for the first entry) to `end`, with `slots` the places of the user's state
 * in it (empty there): `[start, end]` pairs, one for a CTA's state, two for a tag's lists.
 */
interface AnswerSpan {
  from: number;
  start: number;
  slots: readonly number[];
  end: number;
}

interface ServableCta extends CatalogueCta {
  /** The id as a decimal string, the key of the user's state. */
  key: string;
  /** Its entry (the treatment's, with an experiment) in the whole answer. */
  span: AnswerSpan;
  /** With an experiment: the entry its holdout users get (the holdout variant's rule), after the whole answer; else null. */
  holdout: AnswerSpan | null;
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
  /** Its entry in the whole answer; its slots are `ctasResetAt`'s and `activeCtas`'s. */
  span: AnswerSpan;
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
 * Collects the response's parts — ranges of the catalogue's answer bytes and the user's small JSON
 * strings — and copies them once into one buffer: the bulk of a launch answer (the rules) is never
 * re-encoded, adjacent ranges are copied as one, and an answer that is the whole answer is that buffer
 * itself, not a copy.
 */
class ResponseWriter {
  private readonly parts: (Buffer | string)[] = [];
  private length = 0;
  /** The range of `bytes` not added to `parts` yet; `rangeTo` -1: none. */
  private rangeFrom = 0;
  private rangeTo = -1;

  /** `whole`: the whole answer, the start of `bytes`. */
  constructor(
    private readonly bytes: Buffer,
    private readonly whole: Buffer,
  ) {}

  /** Bytes `from` to `to` of the answer bytes. */
  range(from: number, to: number): void {
    if (from !== this.rangeTo) {
      this.endRange();
      this.rangeFrom = from;
    }
    this.rangeTo = to;
  }

  add(part: string): void {
    this.endRange();
    this.parts.push(part);
    this.length += Buffer.byteLength(part);
  }

  toBuffer(): Buffer {
    if (this.parts.length === 0 && this.rangeFrom === 0 && this.rangeTo === this.whole.length) {
      return this.whole;
    }
    this.endRange();
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

  private endRange(): void {
    if (this.rangeTo < 0) return;
    this.parts.push(this.bytes.subarray(this.rangeFrom, this.rangeTo));
    this.length += this.rangeTo - this.rangeFrom;
    this.rangeTo = -1;
  }
}

/**
 * The catalogue's answer bytes as they are assembled, with the span of each entry in them: the whole
 * answer (every servable CTA served, without user state, and the tags linking them), then the entries
 * no answer holds whole (the holdout variants).
 */
class WholeAnswer {
  private readonly chunks: Buffer[] = [];
  private length = 0;

  get size(): number {
    return this.length;
  }

  /** Appends a part that is no entry (the answer's frame). */
  frame(part: Buffer): void {
    this.chunks.push(part);
    this.length += part.length;
  }

  /** Appends an entry, its parts with an empty state slot between each two, after a comma unless `first`. */
  entry(parts: readonly string[], emptySlots: readonly string[], first: boolean): AnswerSpan {
    const from = this.length;
    if (!first) this.frame(COMMA);
    const start = this.length;
    const slots: number[] = [];
    parts.forEach((part, index) => {
      this.frame(utf8(part));
      if (index < emptySlots.length) {
        slots.push(this.length);
        this.frame(utf8(emptySlots[index]));
        slots.push(this.length);
      }
    });
    return { from, start, slots, end: this.length };
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.chunks, this.length);
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

/** A CTA's launch entry for `rule` (as devices get it): its text before the user's state and after it. */
function ctaEntryText(id: number, rule: Record<string, unknown>, tagName: string | null): [head: string, tail: string] {
  return [`{"ctaId":"${id}","rule":${JSON.stringify(rule)},"activeStateMachines":`, `,"behaviourTagName":${JSON.stringify(tagName)}}`];
}

/** `span`'s entry of the answer bytes, with `states` in its slots (undefined: its empty slots as they are). */
function addEntry(response: ResponseWriter, span: AnswerSpan, first: boolean, states: readonly string[] | undefined): void {
  let at = first ? span.start : span.from;
  if (states !== undefined) {
    for (let index = 0; index < states.length; index++) {
      response.range(at, span.slots[2 * index]);
      response.add(states[index]);
      at = span.slots[2 * index + 1];
    }
  }
  response.range(at, span.end);
}

/** Priority descending, then id: the order of the launch answer. */
export const launchOrder = (a: CatalogueCta, b: CatalogueCta): number => b.priority - a.priority || a.id - b.id;

export class TenantCatalogue implements StateCatalogue {
  /** The running CTAs (live, scheduled), in launch order: what a launch may serve. */
  private readonly servable: ServableCta[] = [];
  /** Every CTA held, the servable ones and the paused ones, in launch order. */
  private readonly held: CatalogueCta[] = [];
  private readonly stateful = new Map<string, StatefulCta>();
  private readonly tagNames = new Set<string>();
  /** The tags linking a servable CTA, by name: what a launch may serve. */
  private readonly servableTags: ServableTag[] = [];
  /**
   * The launch answer of a user served every servable CTA, without state (docs/architecture.md, the
   * launch's render step), and after it the holdout variants' entries: built once; a launch copies its
   * ranges around the user's state, or sends the whole answer as it is.
   */
  private readonly answerBytes: Buffer;
  /** The whole answer: the start of `answerBytes`. */
  private readonly wholeAnswer: Buffer;
  /** Where the tags' list starts in `wholeAnswer` (`],"behaviourTags":[`). */
  private readonly tagsStart: number;
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
    const running: { held: CatalogueCta; entry: [string, string]; holdout: [string, string] | null }[] = [];
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
      running.push({
        held,
        entry: ctaEntryText(id, rule, held.tagName),
        // Rendered here, once per catalogue revision, like the treatment.
        holdout: held.experiment && ctaEntryText(id, holdoutRule(rule as Pick<CtaRule, 'actions'>, held.experiment), held.tagName),
      });
    }
    running.sort((a, b) => launchOrder(a.held, b.held));
    const whole = new WholeAnswer();
    whole.frame(RESPONSE_START);
    running.forEach(({ held, entry }, index) => {
      const servable: ServableCta = { ...held, key: String(held.id), span: whole.entry(entry, [NO_CTA_STATE], index === 0), holdout: null };
      this.servable.push(servable);
      this.held.push(servable);
    });
    this.held.sort(launchOrder);
    this.tagsStart = whole.size;
    whole.frame(TAGS_START);
    const linkedTags = new Set(this.servable.map((cta) => cta.tagName));
    for (const tag of [...tags].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      this.tagNames.add(tag.name);
      if (!linkedTags.has(tag.name)) continue;
      const { ctasResetAt: _ignored, ...exposureRule } = tag.exposureRule as unknown as Record<string, unknown>;
      const relation = { shownCta: tag.ctaRelation.shownCta, hideCta: tag.ctaRelation.hideCta };
      const head = `{"behaviourTagName":${JSON.stringify(tag.name)},"exposureRule":${openObject(exposureRule)}"ctasResetAt":`;
      const middle = `},"ctaRelation":${openObject(relation)}"activeCtas":`;
      const first = this.servableTags.length === 0;
      this.servableTags.push({ name: tag.name, span: whole.entry([head, middle, TAG_END], [NO_TAG_LIST, NO_TAG_LIST], first) });
    }
    whole.frame(RESPONSE_END);
    const wholeLength = whole.size;
    running.forEach(({ holdout }, index) => {
      if (holdout) this.servable[index].holdout = whole.entry(holdout, [NO_CTA_STATE], false);
    });
    this.answerBytes = whole.toBuffer();
    this.wholeAnswer = this.answerBytes.subarray(0, wholeLength);
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
  }

  stateTtlOf(ctaId: string, now: number): number | undefined {
    const cta = this.stateful.get(ctaId);
    return cta && keepsUserStateAt(cta, now) ? cta.stateMachineTTL : undefined;
  }

  hasTag(name: string): boolean {
    return this.tagNames.has(name);
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
    const response = new ResponseWriter(this.answerBytes, this.wholeAnswer);
    response.range(0, RESPONSE_START.length);
    let first = true;
    for (const cta of this.servable) {
      if (servingBlocks(cta, audience, now) !== 0) continue;
      const userCta = state.cta(cta.key);
      // Only a CTA with an experiment hashes the user id (docs/experiments.md).
      const span = cta.holdout !== null && this.armOf(cta, userId) === 'holdout' ? cta.holdout : cta.span;
      addEntry(response, span, first, userCta === undefined ? undefined : [userCta]);
      first = false;
      if (cta.tagName !== null) usedTags.add(cta.tagName);
    }
    response.range(this.tagsStart, this.tagsStart + TAGS_START.length);
    first = true;
    for (const tag of this.servableTags) {
      if (!usedTags.has(tag.name)) continue;
      const tagState = state.tag(tag.name);
      addEntry(response, tag.span, first, tagState && [tagState.ctasResetAt, tagState.activeCtas]);
      first = false;
    }
    response.range(this.wholeAnswer.length - RESPONSE_END.length, this.wholeAnswer.length);
    return response.toBuffer();
  }
}
