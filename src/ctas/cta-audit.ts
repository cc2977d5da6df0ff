import type { EntityManager } from 'typeorm';
import type { AuditLog } from '../audit/audit-log.service';
import type { AuditAction, ChangeOrigin } from '../audit/audit.types';
import { loadCtaRecord } from './cta-links';
import type { CtaRecord } from './cta-record';

/**
 * Records changes of a tenant's CTAs made in the transaction of `manager`; each `after` is
 * read back there, as the admin API shows it (DESIGN §20).
 */
export async function recordCtaChanges(
  audit: AuditLog,
  manager: EntityManager,
  origin: ChangeOrigin,
  tenantId: string,
  action: AuditAction,
  changed: { id: number; before: CtaRecord | null }[],
): Promise<void> {
  const changes = [];
  for (const { id, before } of changed) {
    const after = await loadCtaRecord(manager, tenantId, id);
    changes.push({ tenantId, entityType: 'cta' as const, entityId: String(id), action, before, after });
  }
  await audit.record(manager, origin, changes);
}
