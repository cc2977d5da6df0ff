import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import { joinProblemTexts } from '../common/problems';
import { DEFAULT_PREVIEW_TTL_SECONDS, NudgePreview, WriteNudgePreviewDto } from './dto/nudge-preview.dto';
import type { NudgePreviewEntity } from './nudge-preview.entity';

/** The rules of nudge previews that need no database: what a write stores, and what a read sees of it. */

/** What a write stores of a preview: its template under its id, for `ttl` seconds. */
export type StoredPreview = Pick<NudgePreviewEntity, 'id' | 'template' | 'ttl' | 'expiresAt'>;

/** Null, absent, empty or blank: what the seed calls "null or empty", with its own error code. */
const isNullOrEmpty = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * "id must not be null or empty", and the same of template: each of the two that is. The body pipe names them
 * beside the DTO's problems (a wrong ttl), so one answer names them all.
 */
export const emptyPreviewFields = (body: { id?: unknown; template?: unknown }): string[] =>
  (['id', 'template'] as const).filter((field) => isNullOrEmpty(body[field])).map((field) => `${field} must not be null or empty`);

/** The preview a write (validated by its DTO) stores at `now`: ttl absent or null means the default; it expires ttl seconds on. */
export function previewToStore(body: WriteNudgePreviewDto, now: number): StoredPreview {
  const empty = emptyPreviewFields(body);
  if (empty.length > 0) throw new DomainError(ErrorCode.NUDGE_PREVIEW_TEMPLATE_NOT_FOUND_EXCEPTION, joinProblemTexts(empty));
  const { id, template } = body as { id: string; template: string };
  const ttl = body.ttl ?? DEFAULT_PREVIEW_TTL_SECONDS;
  return { id, template, ttl, expiresAt: now + ttl * 1000 };
}

/** What the SDK reads of a stored preview at `now`: the preview until it expires, from then on (its expiry included) nothing. */
export function readablePreview(row: NudgePreviewEntity | null, now: number): NudgePreview | null {
  // Number(): MySQL drivers may hand a bigint column over as a string.
  return row !== null && Number(row.expiresAt) > now ? { id: row.id, template: row.template, tenantId: row.tenantId, ttl: row.ttl } : null;
}
