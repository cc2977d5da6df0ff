import { Column, Entity, PrimaryColumn } from 'typeorm';
import { jsonTransformer } from '../database/transformers';
import type { ExposureWindow } from './exposure-policy';

/** A tenant's exposure policy (docs/exposure-policy.md); a tenant without a row has none (off). */
@Entity({ name: 'exposure_policies' })
export class ExposurePolicyEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId: string;

  /** Null: off. */
  @Column({ name: 'max_actions', type: 'integer', nullable: true })
  maxActions: number | null;

  @Column({ name: 'exposure_window', type: 'text', nullable: true, transformer: jsonTransformer })
  window: ExposureWindow | null;

  @Column({ name: 'updated_at', type: 'bigint' })
  updatedAt: number;
}
