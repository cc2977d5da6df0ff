import type { EntityManager } from 'typeorm';
import { CatalogueRevisionEntity } from '../catalogue/catalogue-revision.entity';

/**
 * Tenants the periodic jobs visit. Every CTA write bumps its tenant's catalogue
 * revision, so each tenant holding CTAs has a row there; the jobs then work per
 * tenant on indexes led by `tenant_id`.
 */
export async function catalogueTenants(manager: EntityManager): Promise<string[]> {
  const rows = await manager.find(CatalogueRevisionEntity, { select: { tenantId: true } });
  return rows.map((row) => row.tenantId);
}
