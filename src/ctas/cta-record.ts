import { approvalOfContent, CtaApproval, StoredApproval } from '../cta-lifecycle/content-approvals';
import type { CtaExperiment } from './cta-experiment';
import type { CtaEntity } from './cta.entity';
import type { CtaRule } from '../rule/rule.types';
import type { CtaStatus } from '../cta-lifecycle/cta-statuses';
import type { CtaFieldsDto } from './dto/cta-body.dto';

/** A CTA as the admin API answers it (seed "CTA" resource). */
export interface CtaRecord {
  id: number;
  name: string;
  description: string | null;
  tags: string[];
  team: string;
  behaviourTags: string[];
  startTime: number | null;
  endTime: number | null;
  ctaStatus: CtaStatus;
  rule: CtaRule & { ctaValidTill: number | null };
  /** With its defaults filled in; null: none (docs/experiments.md). */
  experiment: CtaExperiment | null;
  /** Served over the exposure cap (docs/exposure-policy.md); never sent to devices. */
  capExempt: boolean;
  createdAt: number;
  createdBy: string;
  lastUpdatedAt: number | null;
  lastUpdatedBy: string | null;
  tenantId: string;
  /**
   * Only while approvals are required (docs/decisions/0015-approvals.md): the approval of the
   * current content, null when it has none. Absent otherwise, and on test CTAs.
   */
  approval?: CtaApproval | null;
}

/**
 * `ctaValidTill` is derived, never stored: the end time, else a test CTA's expiry, else null
 * (docs/decisions/0002-status-lifecycle-and-live-edits.md).
 */
export const ctaValidTill = (cta: Pick<CtaEntity, 'endTime' | 'isTest' | 'expiresAt'>): number | null =>
  cta.endTime ?? (cta.isTest ? cta.expiresAt : null);

/**
 * A stored rule's `frequency` as clients read it: `lifespan` (the spelling the mobile SDK and the
 * real admin panel read) right after `lifeSpan`, equal. The launch and every admin read of a rule
 * show it so; without it the panel's edit form resets the lifetime cap to its default on each save.
 */
export function frequencyAsRead(frequency: unknown): unknown {
  if (typeof frequency !== 'object' || frequency === null || Array.isArray(frequency)) {
    return frequency;
  }
  const hasLifeSpan = 'lifeSpan' in frequency;
  const result: Record<string, unknown> = {};
  for (const [key, limit] of Object.entries(frequency)) {
    if (key === 'lifespan' && hasLifeSpan) continue;
    result[key] = limit;
    if (key === 'lifeSpan') result.lifespan = limit;
  }
  return result;
}

/** The rule as the admin API shows it: `frequency` as clients read it, and the derived `ctaValidTill`. */
const ruleAsRead = (cta: CtaEntity): CtaRecord['rule'] => ({
  ...cta.rule,
  ...('frequency' in cta.rule ? { frequency: frequencyAsRead(cta.rule.frequency) as CtaRule['frequency'] } : {}),
  ctaValidTill: ctaValidTill(cta),
});

/** What a restore puts back of a CTA as recorded: the fields an update sends (`ctaValidTill` is derived, so left out of the rule). */
export function editableFields({ description, tags, team, startTime, endTime, rule, capExempt, experiment }: CtaRecord): CtaFieldsDto {
  const { ctaValidTill: _derived, ...storedRule } = rule;
  // Entries from before capExempt or experiments existed lack them: the restore keeps the current values (absent keeps).
  return { description, tags, team, startTime, endTime, rule: storedRule, capExempt, ...(experiment === undefined ? {} : { experiment }) };
}

/** Categorisation tags and behaviour tag names of a set of CTAs, by CTA id; their approvals while approvals are required. */
export interface CtaLinks {
  tags: Map<number, string[]>;
  behaviourTags: Map<number, string[]>;
  approvals?: Map<number, StoredApproval>;
}

export function toCtaRecord(cta: CtaEntity, links: CtaLinks): CtaRecord {
  const id = Number(cta.id);
  return {
    id,
    name: cta.name,
    description: cta.description,
    tags: links.tags.get(id) ?? [],
    team: cta.team,
    behaviourTags: links.behaviourTags.get(id) ?? [],
    startTime: cta.startTime,
    endTime: cta.endTime,
    ctaStatus: cta.status,
    rule: ruleAsRead(cta),
    experiment: cta.experiment ?? null,
    capExempt: cta.capExempt,
    createdAt: cta.createdAt,
    createdBy: cta.createdBy,
    lastUpdatedAt: cta.lastUpdatedAt,
    lastUpdatedBy: cta.lastUpdatedBy,
    tenantId: cta.tenantId,
    ...(links.approvals && !cta.isTest ? { approval: approvalOfContent(links.approvals.get(id), cta.contentRevision) } : {}),
  };
}
