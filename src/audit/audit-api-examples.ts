import { RECORD_EXAMPLE } from '../ctas/cta-api-examples';
import type { AuditEntry, AuditPage } from './audit.types';

/**
 * The console's flow on an empty database (cta-api-examples.ts) writes the entries of the two
 * event definitions first, then the CTA create's: that entry's id, the restore example.
 */
export const FLOW_CTA_AUDIT_ID = 3;

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
