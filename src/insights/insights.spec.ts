import { emptyUserState, type UserState } from '../sdk/user-state';
import type { StateMachine } from '../sdk/snapshot-request';
import { DAY_MS, insightBaseline, insightChanges, newEntries } from './insight-changes';
import { addToPending, readPending } from './insight-pending';
import { dayRange, firstDayOf, monthOf, monthsAndDays } from './insight-range';

const machine = (currentState: string): StateMachine => ({ currentState, lastTransitionAt: 1, createdAt: 1 });

/** A user's state of CTA "7": its lists and machines (by key, their states). */
function stateOf(lists: { actionDoneAt?: number[]; resetAt?: number[] }, machines: Record<string, string> = {}): UserState {
  const state = emptyUserState();
  state.ctas.set('7', {
    activeStateMachines: new Map(Object.entries(machines).map(([key, current]) => [key, machine(current)])),
    actionDoneAt: lists.actionDoneAt ?? [],
    resetAt: lists.resetAt ?? [],
  });
  return state;
}

describe('newEntries: what a list adds past the mark', () => {
  it.each([
    ['a re-sent list', [1, 2, 3], [3, 1], []],
    ['a grown list', [1, 2, 3, 4, 5], [3, 1], [4, 5]],
    ['a first list', [3, 1], null, [3, 1]],
    ['entries the caps dropped, sent again', [1, 2, 3, 4], [4, 1], []],
    ['entries older than the mark', [2, 5], [3, 1], [5]],
    ['one more of an equal time', [4, 4, 4], [4, 2], [4]],
    ['fewer of an equal time', [4], [4, 2], []],
  ] as const)('%s', (_case, list, mark, added) => {
    expect(newEntries(list, mark === null ? null : [mark[0], mark[1]])).toEqual(added);
  });
});

describe('insightChanges: one write of a user state', () => {
  const day = 20_000;
  const at = (days: number, ms = 0) => (day + days) * DAY_MS + ms;

  it('counts new entries on their UTC day, a first action as a new user, and the machines per state', () => {
    const before = stateOf({}, { a: '0' });
    const baseline = insightBaseline(before, '[]');
    const after = stateOf({ actionDoneAt: [at(1, 5), at(0, DAY_MS - 1)], resetAt: [at(1)] }, { a: '1', b: '1' });
    const { changes, marks } = insightChanges(baseline, after);
    expect(JSON.parse(marks!)).toEqual([
      [
        '7',
        [
          [at(1, 5), 1],
          [at(1), 1],
        ],
      ],
    ]);
    expect(changes).toEqual([
      {
        ctaId: '7',
        days: [
          [day, 1, 0, 1],
          [day + 1, 1, 1, 0],
        ],
        users: 0,
        states: [
          ['0', -1],
          ['1', 2],
        ],
      },
    ]);
  });

  it('counts a user gone from a CTA (state dropped, marks with it) and no change at all as nothing', () => {
    const state = stateOf({ actionDoneAt: [at(0)] }, { a: '2' });
    const marks = JSON.stringify([['7', [[at(0), 1], null]]]);
    const baseline = insightBaseline(state, marks);
    expect(insightChanges(baseline, state)).toEqual({ changes: [], marks });
    state.ctas.delete('7');
    expect(insightChanges(baseline, state)).toEqual({ changes: [{ ctaId: '7', days: [], users: -1, states: [['2', -1]] }], marks: '[]' });
  });

  it('counts against the stored marks, which never move back: an older list overwriting the stored one counts nothing again', () => {
    const marks = JSON.stringify([['7', [[at(3), 1], null]]]);
    const older = stateOf({ actionDoneAt: [at(1)] });
    const overwritten = insightChanges(insightBaseline(stateOf({ actionDoneAt: [at(1), at(2), at(3)] }), marks), older);
    expect(overwritten).toEqual({ changes: [], marks });
    const resent = insightChanges(insightBaseline(older, overwritten.marks), stateOf({ actionDoneAt: [at(1), at(2), at(4)] }));
    expect(resent.changes).toEqual([{ ctaId: '7', days: [[day + 4, 1, 0, 0]], users: 0, states: [] }]);
  });

  it('starts from the stored list without marks: no user counted again, no entry past any date', () => {
    const { changes, marks } = insightChanges(
      insightBaseline(stateOf({ actionDoneAt: [at(0)] }), null),
      stateOf({ actionDoneAt: [at(0), at(2), 9e15] }),
    );
    expect(changes).toEqual([{ ctaId: '7', days: [[day + 2, 1, 0, 0]], users: 0, states: [] }]);
    expect(JSON.parse(marks!)).toEqual([['7', [[9e15, 1], null]]]);
  });
});

describe('pending insights: one text per user, added up per CTA and day', () => {
  it('adds changes up, drops what cancels out, and reads back what it holds', () => {
    const first = addToPending(null, [{ ctaId: '7', days: [[5, 1, 0, 1]], users: 1, states: [['0', 1]] }]);
    const second = addToPending(first, [
      { ctaId: '7', days: [[5, 2, 1, 0]], users: -1, states: [['0', -1]] },
      { ctaId: '8', days: [], users: 0, states: [['x'.repeat(300), 1]] },
    ]);
    expect(readPending(second!)).toEqual([
      { ctaId: '7', days: [[5, 3, 1, 1]], users: 0, states: [] },
      { ctaId: '8', days: [], users: 0, states: [['x'.repeat(255), 1]] },
    ]);
    expect(addToPending(null, [{ ctaId: '9', days: [], users: 1, states: [['0', 1]] }])).not.toBeNull();
    const cancelled = addToPending(addToPending(null, [{ ctaId: '9', days: [], users: 1, states: [['0', 1]] }]), [
      { ctaId: '9', days: [], users: -1, states: [['0', -1]] },
    ]);
    expect(cancelled).toBeNull();
    expect(addToPending('[["7",{"u":1}]]', [])).toBe('[["7",{"u":1}]]');
  });
});

describe('dayRange', () => {
  const today = 20_000;
  it('defaults to the 30 days ending today, or ending on `to`', () => {
    expect(dayRange({}, today)).toEqual({ from: today - 29, to: today });
    expect(dayRange({ to: '1970-01-31' }, today)).toEqual({ from: 1, to: 30 });
    expect(dayRange({ from: '1970-01-01', to: '1970-01-01' }, today)).toEqual({ from: 0, to: 0 });
  });

  it.each([
    [{ from: '1970-02-29' }, 'from must be a UTC day as YYYY-MM-DD, e.g. 2026-03-01, got "1970-02-29"'],
    [{ to: ['2026-01-01'] }, 'to must be a UTC day as YYYY-MM-DD, e.g. 2026-03-01, got ["2026-01-01"]'],
    [{ from: '1970-01-03', to: '1970-01-02' }, 'from (1970-01-03) must not be after to (1970-01-02)'],
    [{ from: '1970-01-01', to: '1971-01-02' }, 'from 1970-01-01 to 1971-01-02 spans 367 days; a range spans at most 366 days'],
  ])('refuses %j', (query, message) => {
    expect(() => dayRange(query, today)).toThrow(message);
  });
});

describe('monthsAndDays: a range as whole months and the days outside them', () => {
  const day = (text: string) => Date.parse(`${text}T00:00:00Z`) / DAY_MS;
  const month = (text: string) => monthOf(day(`${text}-01`));

  it('numbers months from January 1970, back to year 0', () => {
    expect([monthOf(0), monthOf(31), monthOf(-1), firstDayOf(1), firstDayOf(-1)]).toEqual([0, 1, -1, 31, -31]);
    expect(firstDayOf(month('0001-02'))).toBe(day('0001-02-01'));
  });

  it.each([
    ['2026-01-01', '2026-12-31', ['2026-01', '2026-12'], []],
    [
      '2025-11-26',
      '2026-11-26',
      ['2025-12', '2026-10'],
      [
        ['2025-11-26', '2025-11-30'],
        ['2026-11-01', '2026-11-26'],
      ],
    ],
    ['2026-02-01', '2026-03-15', ['2026-02', '2026-02'], [['2026-03-01', '2026-03-15']]],
    ['2026-03-02', '2026-03-30', null, [['2026-03-02', '2026-03-30']]],
  ])('%s to %s', (from, to, months, days) => {
    const split = monthsAndDays({ from: day(from), to: day(to) });
    if (months) expect([split.fromMonth, split.toMonth]).toEqual(months.map(month));
    else expect(split.fromMonth).toBeGreaterThan(split.toMonth);
    expect(split.days).toEqual(days.map(([a, b]) => ({ from: day(a), to: day(b) })));
  });
});
