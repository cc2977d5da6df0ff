import { ThrottledLog } from './throttled-log';

describe('ThrottledLog', () => {
  let lines: [string, number[], number][];
  const log = (maxKeys = 10) =>
    new ThrottledLog<number, number[]>({
      periodMs: 5000,
      maxKeys,
      summarize: (event) => [event],
      add: (summary, event) => void summary.push(event),
      write: (key, summary, events) => void lines.push([key, summary, events]),
    });

  beforeEach(() => {
    jest.useFakeTimers();
    lines = [];
  });
  afterEach(() => jest.useRealTimers());

  /** Records each `[key, event]` in order. */
  const recordEach = (throttled: ReturnType<typeof log>, events: [string, number][]) =>
    events.forEach(([key, event]) => throttled.record(key, event));

  it('writes the first event of a key at once and sums up the rest of the period in one line when it ends', () => {
    const throttled = log();
    recordEach(throttled, [
      ['a', 1],
      ['a', 2],
      ['b', 3],
      ['a', 4],
    ]);
    expect(lines).toEqual([
      ['a', [1], 1],
      ['b', [3], 1],
    ]);
    jest.advanceTimersByTime(4999);
    expect(lines).toHaveLength(2);
    jest.advanceTimersByTime(1);
    expect(lines.slice(2)).toEqual([['a', [2, 4], 2]]);
    // The line just written starts a new period: the next event waits for its end.
    throttled.record('a', 5);
    expect(lines).toHaveLength(3);
    jest.advanceTimersByTime(5000);
    expect(lines.slice(3)).toEqual([['a', [5], 1]]);
    jest.advanceTimersByTime(60_000);
    expect(lines).toHaveLength(4);
  });

  it('remembers at most maxKeys keys, writing the pending line of a key it forgets', () => {
    const throttled = log(2);
    recordEach(throttled, [
      ['a', 1],
      ['a', 2],
      ['b', 3],
      ['c', 4],
    ]);
    expect(lines).toEqual([
      ['a', [1], 1],
      ['b', [3], 1],
      ['a', [2], 1],
      ['c', [4], 1],
    ]);
    jest.advanceTimersByTime(60_000);
    expect(lines).toHaveLength(4);
  });
});
