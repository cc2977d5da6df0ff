import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A nudge preview (docs/behaviour.md#nudge-previews): a template kept under an id until `expiresAt`. */
@Entity({ name: 'nudge_previews' })
// The periodic purge's scan over every tenant.
@Index('ix_nudge_previews_expiry', ['expiresAt'])
export class NudgePreviewEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId: string;

  @PrimaryColumn({ name: 'preview_id', type: 'varchar', length: 255 })
  id: string;

  @Column({ type: 'text' })
  template: string;

  /** Seconds, as written (3600 when the write sent none). */
  @Column({ type: 'integer' })
  ttl: number;

  @Column({ name: 'expires_at', type: 'bigint' })
  expiresAt: number;

  @Column({ name: 'updated_at', type: 'bigint' })
  updatedAt: number;
}
