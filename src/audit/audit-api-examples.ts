import { BAD_TENANT_EXAMPLE, type ErrorExample, type RouteErrors } from '../common/api-error-responses';
import { ErrorCode } from '../common/error-code';
import { FLOW_TAG_NAME, RECORD_EXAMPLE } from '../api-docs/flow-examples';
import { AUDIT_ACTIONS, type AuditEntry, type AuditPage } from './audit.types';

/**
 * The console's examples, top to bottom on an empty database (cta-api-examples.ts), write the CTA create's
 * entry first: that entry's id, the restore example.
 */
export const FLOW_CTA_AUDIT_ID = 1;

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

/** The path parameter of a behaviour tag's history. */
export const TAG_NAME_PARAM = { name: 'behaviourTagName', description: 'the tag name, URL-encoded', example: FLOW_TAG_NAME };

const BAD_PAGING = 'INVALID_REQUEST: pageSize not a decimal integer 1-100, pageNumber not a decimal integer ≥ 0, or a repeated parameter';
const BAD_PAGING_EXAMPLE: ErrorExample = [ErrorCode.INVALID_REQUEST, 'pageSize must be a decimal integer between 1 and 100'];

/** The error answers of the audit routes (AuditController). */
export const AUDIT_ERRORS = {
  search: {
    400: {
      description: `${BAD_PAGING}, from/to not epoch milliseconds, an entityType or action that is none of their values, or a malformed x-tenant-id`,
      examples: [
        BAD_PAGING_EXAMPLE,
        [ErrorCode.INVALID_REQUEST, `action must be one of ${AUDIT_ACTIONS.join(', ')}`],
        [ErrorCode.INVALID_REQUEST, 'from must be epoch milliseconds (a decimal integer ≥ 0)'],
        BAD_TENANT_EXAMPLE,
      ],
    },
  },
  ctaHistory: {
    400: {
      description: `CTA_ID_INVALID: a non-numeric id, or a CTA with neither a record nor any history; ${BAD_PAGING}`,
      examples: [[ErrorCode.CTA_ID_INVALID, 'CTA 99 does not exist'], BAD_PAGING_EXAMPLE],
    },
  },
  behaviourTagHistory: { 400: { description: BAD_PAGING, examples: [BAD_PAGING_EXAMPLE] } },
} satisfies Record<string, RouteErrors>;
