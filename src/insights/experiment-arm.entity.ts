import { Column, Entity, PrimaryColumn } from 'typeorm';
import { CtaRow } from '../database/entity-columns';
import type { ExperimentArm } from '../serving/experiment-arm';

/**
 * One arm's folded counts of a CTA's experiment (docs/decisions/0026-experiments.md): the insights fold adds
 * the users' pending counts to it (insight-folded.ts), as to the other folded rows.
 */
@Entity({ name: 'experiment_arms' })
export class ExperimentArmEntity extends CtaRow {
  @PrimaryColumn({ type: 'varchar', length: 16 })
  arm: ExperimentArm;

  /** Users with a first machine of the CTA. */
  @Column({ type: 'bigint' })
  entered: number;

  /** Users with a first action of the CTA. */
  @Column({ type: 'bigint' })
  exposed: number;

  /** Exposed users whose machine reached the goal state within the window. */
  @Column({ type: 'bigint' })
  converted: number;
}
