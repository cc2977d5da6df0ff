import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { RECORD_EXAMPLE } from '../ctas/cta-api-examples';
import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES, AuditEntry, AuditPage } from './audit.types';

/**
 * The console's flow on an empty database (cta-api-examples.ts) writes the entries of the two
 * event definitions first, then the CTA create's: that entry's id, the restore example.
 */
export const FLOW_CTA_AUDIT_ID = 3;

const NULLABLE_STRING = { type: 'string', nullable: true } as const;

export const AUDIT_ENTRY_SCHEMA: SchemaObject = {
  type: 'object',
  properties: {
    id: { type: 'integer', format: 'int64', description: 'the entry id, for restore' },
    at: { type: 'integer', format: 'int64', description: 'epoch ms of the change' },
    actor: {
      ...NULLABLE_STRING,
      description:
        'name of the admin key (ADMIN_API_KEYS) that made it, `scheduler` for timed transitions, null when the admin API is open',
    },
    user: { ...NULLABLE_STRING, description: 'the `user` header of the request, null where it was optional and absent' },
    requestId: { ...NULLABLE_STRING, description: 'the x-request-id of the request' },
    entityType: { type: 'string', enum: [...AUDIT_ENTITY_TYPES] },
    entityId: { type: 'string', description: 'CTA id, behaviour tag name, event name or cohort name' },
    action: { type: 'string', enum: [...AUDIT_ACTIONS] },
    before: {
      type: 'object',
      nullable: true,
      additionalProperties: true,
      description: 'the record as the admin API showed it before; null on create',
    },
    after: {
      type: 'object',
      nullable: true,
      additionalProperties: true,
      description: 'the record as the admin API showed it after; null on delete',
    },
    changes: {
      type: 'array',
      description: 'RFC 6902 JSON Patch from before to after (a whole-document replace on create and delete)',
      items: {
        type: 'object',
        properties: { op: { type: 'string' }, path: { type: 'string' }, value: {}, from: { type: 'string' } },
      },
    },
  },
};

export const AUDIT_PAGE_SCHEMA: SchemaObject = {
  type: 'object',
  properties: {
    entries: { type: 'array', items: AUDIT_ENTRY_SCHEMA, description: 'newest first' },
    totalEntries: { type: 'integer' },
    totalPages: { type: 'integer' },
    pageNumber: { type: 'integer' },
    pageSize: { type: 'integer' },
  },
};

const PAUSED = { ...RECORD_EXAMPLE, ctaStatus: 'paused' as const, lastUpdatedAt: 1795372967296, lastUpdatedBy: 'alice@example.com' };
const EDITED = { ...PAUSED, team: 'store', lastUpdatedAt: 1795373067296 };

const ENTRY_EXAMPLE: AuditEntry = {
  id: FLOW_CTA_AUDIT_ID + 1,
  at: 1795373067296,
  actor: 'alice-editor',
  user: 'alice@example.com',
  requestId: '5f0c6c1e-6a4e-4f57-9d55-6f1b3c9a2e11',
  entityType: 'cta',
  entityId: String(RECORD_EXAMPLE.id),
  action: 'update',
  before: PAUSED,
  after: EDITED,
  changes: [
    { op: 'replace', path: '/lastUpdatedAt', value: EDITED.lastUpdatedAt },
    { op: 'replace', path: '/team', value: 'store' },
  ],
};

export const AUDIT_PAGE_EXAMPLE: AuditPage = { entries: [ENTRY_EXAMPLE], totalEntries: 1, totalPages: 1, pageNumber: 0, pageSize: 10 };
