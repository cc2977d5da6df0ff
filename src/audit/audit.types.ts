import type { Operation } from 'fast-json-patch';

/**
 * What an audit entry is about (docs/decisions/0009-audit-in-the-same-transaction.md); `appUser`: an app user's
 * data erase, its entity id the hex SHA-256 of `tenant:userId` (docs/decisions/0017-user-data-export-and-erase.md).
 */
export const AUDIT_ENTITY_TYPES = ['cta', 'testCta', 'behaviourTag', 'event', 'cohort', 'appUser', 'exposurePolicy'] as const;
export type AuditEntityType = (typeof AUDIT_ENTITY_TYPES)[number];

/** What was done: a write, a status change (named as its route), a restore, an approval, a cohort's member change, a user's erase. */
export const AUDIT_ACTIONS = [
  'create',
  'update',
  'delete',
  'live',
  'pause',
  'schedule',
  'conclude',
  'terminate',
  'restore',
  'approve',
  'members',
  'erase',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * Who made a change and in which request: the admin key's name (null when the
 * admin API is open or a host's own guard named nobody), the `user` header (null
 * where it is optional and absent), the request id. The periodic job is `SCHEDULER_ORIGIN`.
 */
export interface ChangeOrigin {
  actor: string | null;
  user: string | null;
  requestId: string | null;
}

export const SCHEDULER_ORIGIN: ChangeOrigin = { actor: 'scheduler', user: null, requestId: null };

/** One change of one record, as a service reports it; `before`/`after` as the admin API shows the record. */
export interface AuditedChange {
  entityType: AuditEntityType;
  entityId: string;
  action: AuditAction;
  before: object | null;
  after: object | null;
}

/** An audit entry as `GET /{admin}/audit` answers it. */
export interface AuditEntry extends AuditedChange, ChangeOrigin {
  id: number;
  at: number;
  /** RFC 6902 JSON Patch from `before` to `after`. */
  changes: Operation[];
}

export interface AuditPage {
  entries: AuditEntry[];
  totalEntries: number;
  totalPages: number;
  pageNumber: number;
  pageSize: number;
}
