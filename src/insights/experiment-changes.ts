/**
 * What one write of a user's state counts for the experiment of a CTA (docs/experiments.md,
 * docs/decisions/0026-experiments.md): whether the user entered (a first machine of the CTA), was
 * exposed (a first action) and converted (a machine first stored in the goal state — or reset from it —
 * within the window of the exposure, on the server's clock). Each once per user: the marks say which
 * have been counted, and live with the user's insight marks of the CTA (insight-changes.ts), which last
 * as long as the catalogue keeps the CTA's state, whatever devices re-send.
 */

/** An arm's index in a change's and a count's `arms`: 0 treatment, 1 holdout (the order of EXPERIMENT_ARMS). */
export type ArmIndex = 0 | 1;

/** `[entered, exposed, converted]` of one arm. */
export type ArmCounts = [entered: number, exposed: number, converted: number];

/** Both arms' counts: treatment, holdout. */
export type ArmsCounts = [treatment: ArmCounts, holdout: ArmCounts];

/** `arms` with `more` added, in place. */
export function addArms(arms: ArmsCounts, more: ArmsCounts): void {
  for (const arm of [0, 1] as const) for (const field of [0, 1, 2] as const) arms[arm][field] += more[arm][field];
}

/** What the write knows of a CTA's experiment and the user's arm in it. */
export interface ExperimentOfWrite {
  arm: ArmIndex;
  goal: string;
  windowMs: number;
}

/** The experiments of the CTAs a write may count, and what its request sent beyond the stored document. */
export interface WriteExperiments {
  /** The server's clock at the write. */
  now: number;
  /** The CTA's experiment and the user's arm; undefined: none. */
  of(ctaId: string): ExperimentOfWrite | undefined;
  /** The states of the CTA's machines the write's request resets (a reset machine is deleted, not stored). */
  resetStates(ctaId: string): readonly string[];
}

/** What has been counted of the user in one CTA's experiment. */
export interface ExperimentMarks {
  entered: boolean;
  /** When the write that counted the exposure was made (server clock); null: not exposed yet. */
  exposedAt: number | null;
  converted: boolean;
}

export const NO_EXPERIMENT_MARKS: ExperimentMarks = { entered: false, exposedAt: null, converted: false };

/** The parts of a CTA's stored marks that are the experiment's: left out when not counted. */
export interface StoredExperimentMarks {
  xe?: 1;
  xx?: number;
  xc?: 1;
}

export const readExperimentMarks = ({ xe, xx, xc }: StoredExperimentMarks): ExperimentMarks =>
  xe === undefined && xx === undefined && xc === undefined
    ? NO_EXPERIMENT_MARKS
    : { entered: xe === 1, exposedAt: xx ?? null, converted: xc === 1 };

export function storeExperimentMarks(marks: ExperimentMarks, stored: StoredExperimentMarks): void {
  if (marks.entered) stored.xe = 1;
  if (marks.exposedAt !== null) stored.xx = marks.exposedAt;
  if (marks.converted) stored.xc = 1;
}

/** What a write of one CTA's state shows of the user, as counting sees it. */
export interface ExperimentSignals {
  /** The user has a machine of the CTA after the write, or the write's request reset one. */
  hasMachine: boolean;
  /** The write counted the user's first action of the CTA. */
  firstAction: boolean;
  /** The write stored more machines in the goal state than were stored, or its request reset one from it. */
  reachedGoal: boolean;
}

/** The marks after the write, and what it counts (null: nothing). */
export function countExperiment(
  marks: ExperimentMarks,
  { hasMachine, firstAction, reachedGoal }: ExperimentSignals,
  experiment: ExperimentOfWrite,
  now: number,
): { marks: ExperimentMarks; counts: ArmCounts | null } {
  const counts: ArmCounts = [0, 0, 0];
  let { entered, exposedAt, converted } = marks;
  if (!entered && (hasMachine || firstAction)) {
    entered = true;
    counts[0] = 1;
  }
  if (exposedAt === null && firstAction) {
    exposedAt = now;
    counts[1] = 1;
  }
  if (!converted && reachedGoal && exposedAt !== null && now - exposedAt <= experiment.windowMs) {
    converted = true;
    counts[2] = 1;
  }
  return counts[0] + counts[1] + counts[2] === 0 ? { marks, counts: null } : { marks: { entered, exposedAt, converted }, counts };
}
