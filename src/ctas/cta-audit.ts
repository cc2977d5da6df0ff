import type { EntityManager } from 'typeorm';
import type { AuditLog } from '../audit/audit-log.service';
import type { AuditAction, ChangeOrigin } from '../audit/audit.types';
import { loadCtaRecordsById } from './cta-links';
import type { CtaRecord } from './cta-record';

/**
 * Records changes of CTAs (of one tenant or several) made in the transaction of `manager`;
 * each `after` is read back there, as the admin API shows it (DESIGN §20).
 */
export async function recordCtaChanges(
  audit: AuditLog,
  manager: EntityManager,
  origin: ChangeOrigin,
  action: AuditAction,
  changed: { id: number; tenantId: string; before: CtaRecord | null }[],
): Promise<void> {
  const after = await loadCtaRecordsById(
    manager,
    changed.map(({ id }) => id),
  );
  await audit.record(
    manager,
    origin,
    changed.map(({ id, tenantId, before }) => ({
      tenantId,
      entityType: 'cta',
      entityId: String(id),
      action,
      before,
      after: after.get(id) ?? null,
    })),
  );
}
