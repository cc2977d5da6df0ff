import { Column, Entity, PrimaryColumn } from 'typeorm';
import { jsonTransformer } from '../database/transformers';
import type { EventProperty } from './event-definition.types';

/** An app event definition (docs/behaviour.md#event-definitions), one per (tenant, name); its properties in the order sent. */
@Entity({ name: 'event_definitions' })
export class EventDefinitionEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId: string;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', transformer: jsonTransformer })
  properties: EventProperty[];

  /** The `x-source` of the last write. */
  @Column({ type: 'varchar', length: 255 })
  source: string;

  @Column({ name: 'created_at', type: 'bigint' })
  createdAt: number;

  @Column({ name: 'updated_at', type: 'bigint' })
  updatedAt: number;
}
