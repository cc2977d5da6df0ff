import { Column, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Column sets that several tables share to the letter (names, types, options), declared once. An entity
 * inherits them; the tables are still built by the migrations, and test/entity-schema.e2e-spec.ts checks
 * that the entities say what the migrations built.
 */

/** The leading columns of a tenant's named record with a generated id (cohorts, CTAs). */
export abstract class TenantNamedRow {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: number;

  @Column({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;
}

/** Who created a record and when, and who changed it last and when (CTAs, behaviour tags). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a mixin's base must take `...args: any[]` (TypeScript's rule for mixins)
export function withAuthorship<Base extends abstract new (...args: any[]) => object>(base: Base) {
  abstract class Authored extends base {
    @Column({ name: 'created_at', type: 'bigint' })
    createdAt: number;

    @Column({ name: 'created_by', type: 'varchar', length: 255 })
    createdBy: string;

    @Column({ name: 'last_updated_at', type: 'bigint', nullable: true })
    lastUpdatedAt: number | null;

    @Column({ name: 'last_updated_by', type: 'varchar', length: 255, nullable: true })
    lastUpdatedBy: string | null;
  }
  return Authored;
}

/** The authorship columns alone, for a record that has no other shared set (behaviour tags). */
export abstract class AuthoredRow extends withAuthorship(class {}) {}

/** The leading key of a row of one CTA of a tenant (its tags, tag links, approval, insights, experiment arms). */
export abstract class CtaRow {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId: string;

  @PrimaryColumn({ name: 'cta_id', type: 'bigint' })
  ctaId: number;
}
