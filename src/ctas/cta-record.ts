import type { CtaEntity } from './cta.entity';
import type { CtaRule, CtaStatus } from './cta.types';
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
  createdAt: number;
  createdBy: string;
  lastUpdatedAt: number | null;
  lastUpdatedBy: string | null;
  tenantId: string;
}

/** `ctaValidTill` is derived, never stored: the end time, else a test CTA's expiry, else null (DESIGN §5). */
export const ctaValidTill = (cta: Pick<CtaEntity, 'endTime' | 'isTest' | 'expiresAt'>): number | null =>
  cta.endTime ?? (cta.isTest ? cta.expiresAt : null);

/** What a restore puts back of a CTA as recorded: the fields an update sends (`ctaValidTill` is derived, so left out of the rule). */
export function editableFields({ description, tags, team, startTime, endTime, rule }: CtaRecord): CtaFieldsDto {
  const { ctaValidTill: _derived, ...storedRule } = rule;
  return { description, tags, team, startTime, endTime, rule: storedRule };
}

/** Categorisation tags and behaviour tag names of a set of CTAs, by CTA id. */
export interface CtaLinks {
  tags: Map<number, string[]>;
  behaviourTags: Map<number, string[]>;
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
    rule: { ...cta.rule, ctaValidTill: ctaValidTill(cta) },
    createdAt: cta.createdAt,
    createdBy: cta.createdBy,
    lastUpdatedAt: cta.lastUpdatedAt,
    lastUpdatedBy: cta.lastUpdatedBy,
    tenantId: cta.tenantId,
  };
}
