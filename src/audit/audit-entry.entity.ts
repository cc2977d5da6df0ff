import type { Operation } from 'fast-json-patch';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { jsonTransformer } from '../database/transformers';
import type { AuditAction, AuditEntityType } from './audit.types';

/** One committed admin change (docs/decisions/0009-audit-in-the-same-transaction.md), appended in the change's own transaction. */
@Entity({ name: 'audit_entries' })
@Index('ix_audit_entries_tenant_id', ['tenantId', 'id'])
@Index('ix_audit_entries_tenant_entity', ['tenantId', 'entityType', 'entityId', 'id'])
export class AuditEntryEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: number;

  @Column({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId: string;

  @Column({ type: 'bigint' })
  at: number;

  @Column({ type: 'varchar', length: 255, nullable: true })
  actor: string | null;

  @Column({ name: 'user_name', type: 'varchar', length: 255, nullable: true })
  user: string | null;

  @Column({ name: 'request_id', type: 'varchar', length: 128, nullable: true })
  requestId: string | null;

  @Column({ name: 'entity_type', type: 'varchar', length: 32 })
  entityType: AuditEntityType;

  @Column({ name: 'entity_id', type: 'varchar', length: 255 })
  entityId: string;

  @Column({ type: 'varchar', length: 32 })
  action: AuditAction;

  // BEFORE is a reserved word on MySQL/MariaDB, hence the column names.
  @Column({ name: 'record_before', type: 'text', nullable: true, transformer: jsonTransformer })
  before: object | null;

  @Column({ name: 'record_after', type: 'text', nullable: true, transformer: jsonTransformer })
  after: object | null;

  @Column({ type: 'text', transformer: jsonTransformer })
  changes: Operation[];
}
