import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import { RUNNING_STATUSES, TAG_CHANGEABLE_STATUSES, TAG_LINKABLE_STATUSES } from '../cta-lifecycle/cta-status-policy';
import type { CtaStatus } from '../cta-lifecycle/cta-statuses';
import type { CtaRelation, CtaRelationSide, TagExposureRule } from './behaviour-tag.types';
import { ctaIdString } from '../common/cta-id';
import { weeksAsDays } from '../rule/exposure-limits';
import type { BehaviourTagRulesDto, CtaRelationSideDto } from './dto/behaviour-tag-body.dto';

/**
 * The rules of docs/decisions/0004-behaviour-tags.md that need no database: the canonical form of a tag
 * body, and the checks on the CTAs it links once they are read. Every
 * violation is a CAMPAIGN_INVALID naming the ids.
 */

/** A validated create/update body in stored form: CTA ids as canonical strings, known keys only. */
export interface TagDefinition {
  description: string | null;
  exposureRule: TagExposureRule;
  ctaRelation: CtaRelation;
  /** Distinct ids, in the order first sent. */
  linkedCtas: string[];
}

/** What the rules need to know about a linked CTA. */
export interface LinkedCtaState {
  id: string;
  status: CtaStatus;
  isTest: boolean;
}

const invalid = (message: string): DomainError => new DomainError(ErrorCode.CAMPAIGN_INVALID, message);

/** "CTA 12" / "CTAs 12, 13" */
export const describeCtas = (ids: readonly string[]): string => `${ids.length === 1 ? 'CTA' : 'CTAs'} ${ids.join(', ')}`;

/** Only called on ids the DTO already checked. */
const canonicalIds = (ids: readonly (string | number)[]): string[] => ids.map((id) => ctaIdString(id) as string);

function relationSide(side: CtaRelationSideDto): CtaRelationSide {
  return { rule: side.rule, ctaList: canonicalIds(side.ctaList) };
}

/** The stored form of a body; fails when a `ctaList` names a CTA that `linkedCtas` does not. */
export function tagDefinition(body: BehaviourTagRulesDto): TagDefinition {
  const { session, window, lifespan } = body.exposureRule;
  const storedWindow = { limit: window.limit, unit: window.unit, value: window.value };
  const weeks = weeksAsDays(storedWindow);
  if (weeks !== null && 'problem' in weeks) {
    throw invalid(`exposureRule.window.value: ${weeks.problem}`);
  }
  const definition: TagDefinition = {
    description: body.description ?? null,
    exposureRule: {
      session: { limit: session.limit },
      // The DTO took the unit, and weeksAsDays turned weeks into days: a unit devices run.
      window: storedWindow as TagExposureRule['window'],
      lifespan: { limit: lifespan.limit },
    },
    ctaRelation: {
      shownCta: relationSide(body.ctaRelation.shownCta),
      hideCta: relationSide(body.ctaRelation.hideCta),
    },
    linkedCtas: [...new Set(canonicalIds(body.linkedCtas))],
  };
  assertDeviceRelation(definition.ctaRelation);
  const linked = new Set(definition.linkedCtas);
  for (const sideName of ['shownCta', 'hideCta'] as const) {
    const unlinked = definition.ctaRelation[sideName].ctaList.filter((id) => !linked.has(id));
    if (unlinked.length > 0) {
      throw invalid(`ctaRelation.${sideName}.ctaList: ${describeCtas(unlinked)} not in linkedCtas`);
    }
  }
  return definition;
}

const WORKING_PAIRS = 'shownCta ANY with hideCta REST (both ctaLists empty) or shownCta LIST with hideCta LIST';

/**
 * Devices understand two relation pairs only (docs/decisions/0004-behaviour-tags.md): `ANY`/`REST` ("any one shows, the rest
 * hide"; devices ignore its lists, so they must be empty) and `LIST`/`LIST`. With any other pair
 * the device blocks every CTA of the tag, always.
 */
export function assertDeviceRelation({ shownCta, hideCta }: CtaRelation): void {
  if (shownCta.rule === 'LIST' && hideCta.rule === 'LIST') {
    return;
  }
  if (shownCta.rule !== 'ANY' || hideCta.rule !== 'REST') {
    throw invalid(
      `ctaRelation: shownCta ${shownCta.rule} with hideCta ${hideCta.rule} makes devices block every CTA of the tag; use ${WORKING_PAIRS}`,
    );
  }
  for (const [sideName, side] of [
    ['shownCta', shownCta],
    ['hideCta', hideCta],
  ] as const) {
    if (side.ctaList.length > 0) {
      throw invalid(
        `ctaRelation.${sideName}.ctaList: must be empty with shownCta ANY and hideCta REST (devices ignore it); to name CTAs use shownCta LIST with hideCta LIST`,
      );
    }
  }
}

/** Every id must be an existing CTA of the tenant, and not a test CTA. */
export function assertLinkable(ids: readonly string[], found: ReadonlyMap<string, LinkedCtaState>): void {
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw invalid(`linkedCtas: ${describeCtas(missing)} ${missing.length === 1 ? 'does' : 'do'} not exist`);
  }
  const testCtas = ids.filter((id) => found.get(id)?.isTest);
  if (testCtas.length > 0) {
    throw invalid(
      `linkedCtas: ${describeCtas(testCtas)} ${testCtas.length === 1 ? 'is a test CTA' : 'are test CTAs'}; test CTAs cannot be linked to a behaviour tag`,
    );
  }
}

/** A CTA belongs to at most one tag; `owners` maps CTA id → the other tag linking it. */
export function assertNotLinkedElsewhere(ids: readonly string[], owners: ReadonlyMap<string, string>): void {
  const taken = ids.filter((id) => owners.has(id));
  if (taken.length > 0) {
    throw invalid(
      `linkedCtas: ${taken.map((id) => `CTA ${id} is already linked to behaviour tag '${owners.get(id)}'`).join('; ')}` +
        ' (a CTA belongs to at most one behaviour tag)',
    );
  }
}

/** The CTAs among `ctas` whose status is not in `allowed`, as "CTA 12 is live, CTA 13 is scheduled". */
function statusViolations(ctas: Iterable<LinkedCtaState>, allowed: readonly CtaStatus[]): string | null {
  const offending = [...ctas]
    .filter((cta) => !allowed.includes(cta.status))
    .sort((a, b) => Number(a.id) - Number(b.id))
    .map((cta) => `CTA ${cta.id} is ${cta.status}`);
  return offending.length > 0 ? offending.join(', ') : null;
}

export function assertLinkableOnCreate(ctas: Iterable<LinkedCtaState>): void {
  const violations = statusViolations(ctas, TAG_LINKABLE_STATUSES);
  if (violations) {
    throw invalid(`linkedCtas: a new behaviour tag can link only ${TAG_LINKABLE_STATUSES.join(' or ')} CTAs; ${violations}`);
  }
}

/** `ctas`: every CTA the tag links before or after the update. */
export function assertUpdatable(tagName: string, ctas: Iterable<LinkedCtaState>): void {
  const violations = statusViolations(ctas, TAG_CHANGEABLE_STATUSES);
  if (violations) {
    throw invalid(`behaviour tag '${tagName}' can change only while none of its CTAs is ${RUNNING_STATUSES.join(' or ')}; ${violations}`);
  }
}
