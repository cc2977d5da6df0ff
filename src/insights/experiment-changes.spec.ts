import {
  countExperiment,
  NO_EXPERIMENT_MARKS,
  readExperimentMarks,
  storeExperimentMarks,
  StoredExperimentMarks,
} from './experiment-changes';

const EXPERIMENT = { arm: 1 as const, goal: '3', windowMs: 1000 };
const NOTHING = { hasMachine: false, firstAction: false, reachedGoal: false };

describe('countExperiment', () => {
  it('counts entered, exposed and converted once each, the exposure timed by the write', () => {
    const entered = countExperiment(NO_EXPERIMENT_MARKS, { ...NOTHING, hasMachine: true }, EXPERIMENT, 10);
    expect(entered).toEqual({ marks: { entered: true, exposedAt: null, converted: false }, counts: [1, 0, 0] });
    const exposed = countExperiment(entered.marks, { ...NOTHING, hasMachine: true, firstAction: true }, EXPERIMENT, 20);
    expect(exposed).toEqual({ marks: { entered: true, exposedAt: 20, converted: false }, counts: [0, 1, 0] });
    const converted = countExperiment(exposed.marks, { hasMachine: true, firstAction: false, reachedGoal: true }, EXPERIMENT, 1020);
    expect(converted).toEqual({ marks: { entered: true, exposedAt: 20, converted: true }, counts: [0, 0, 1] });
    // Again: nothing more, and the marks as they were.
    const again = countExperiment(converted.marks, { hasMachine: true, firstAction: true, reachedGoal: true }, EXPERIMENT, 1030);
    expect(again).toEqual({ marks: converted.marks, counts: null });
  });

  it('counts all three in one write, and no conversion before an exposure or past the window', () => {
    expect(countExperiment(NO_EXPERIMENT_MARKS, { hasMachine: false, firstAction: true, reachedGoal: true }, EXPERIMENT, 5).counts).toEqual(
      [1, 1, 1],
    );
    expect(countExperiment(NO_EXPERIMENT_MARKS, { ...NOTHING, hasMachine: true, reachedGoal: true }, EXPERIMENT, 5).counts).toEqual([
      1, 0, 0,
    ]);
    const late = { entered: true, exposedAt: 0, converted: false };
    expect(countExperiment(late, { ...NOTHING, reachedGoal: true }, EXPERIMENT, 1001)).toEqual({ marks: late, counts: null });
  });

  it('stores only what was counted, and reads it back', () => {
    const stored: StoredExperimentMarks = {};
    storeExperimentMarks(NO_EXPERIMENT_MARKS, stored);
    expect(stored).toEqual({});
    expect(readExperimentMarks(stored)).toBe(NO_EXPERIMENT_MARKS);
    const marks = { entered: true, exposedAt: 7, converted: true };
    storeExperimentMarks(marks, stored);
    expect(stored).toEqual({ xe: 1, xx: 7, xc: 1 });
    expect(readExperimentMarks(stored)).toEqual(marks);
  });
});
