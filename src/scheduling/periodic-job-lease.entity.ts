import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Which instance runs a periodic job, until when (docs/decisions/0007-catalogue-cache-and-periodic-jobs.md). Claimed by a
 * conditional UPDATE, so of several instances one wins; not `GET_LOCK`, which on
 * a Galera cluster locks only the node it runs on.
 */
@Entity({ name: 'periodic_job_leases' })
export class PeriodicJobLeaseEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  job: string;

  @Column({ type: 'varchar', length: 128 })
  owner: string;

  @Column({ name: 'expires_at', type: 'bigint' })
  expiresAt: number;
}
