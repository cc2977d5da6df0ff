import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Per-tenant revision of everything the SDK launch serves; bumped by every admin write
 * (docs/decisions/0007-catalogue-cache-and-periodic-jobs.md).
 */
@Entity({ name: 'catalogue_revisions' })
export class CatalogueRevisionEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId: string;

  @Column({ type: 'bigint' })
  revision: number;

  @Column({ name: 'updated_at', type: 'bigint' })
  updatedAt: number;
}
