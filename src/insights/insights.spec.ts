import { emptyUserState, MAX_STORED_LIST_ENTRIES, type UserState } from '../sdk/user-state';
import type { StateMachine } from '../sdk/snapshot-request';
import { countList, DAY_MS, insightBaseline, insightChanges, MAX_COUNTED_EXTRA } from './insight-changes';
import { CtaCounts } from './insight-counts';
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

describe('countList: what replacing a stored list counts', () => {
  const marks = (floor: number | null, extra: number[] = []) => ({ floor, extra });
  it.each([
    ['a re-sent list', [1, 2, 3], marks(null), [3, 1, 2], [], marks(null)],
    ['a grown list', [1, 2, 3], marks(null), [1, 2, 3, 4, 5], [4, 5], marks(null)],
    ['a first list', [], marks(null), [3, 1], [1, 3], marks(null)],
    ['an emptied list: its entries stay counted', [1, 2], marks(null), [], [], marks(null, [1, 2])],
    ['an older entry of another device', [3], marks(null), [2], [2], marks(null, [3])],
    ['entries counted before, sent again after a reinstall', [5], marks(null, [1, 2]), [1, 2, 5, 6], [6], marks(null)],
    ['entries at or below the floor', [], marks(4), [3, 4, 5], [5], marks(4)],
    ['one more of an equal time', [4, 4], marks(null), [4, 4, 4], [4], marks(null)],
    ['fewer of an equal time', [4, 4], marks(null), [4], [], marks(null, [4])],
  ] as const)('%s', (_case, stored, before, sent, added, after) => {
    const counted = countList(stored, before, sent);
    expect(counted.added).toEqual(added);
    expect(counted.marks).toEqual(after);
  });

  it(`keeps the newest ${MAX_STORED_LIST_ENTRIES} entries of a list's counted set; older ones raise the floor`, () => {
    const entries = Array.from({ length: MAX_STORED_LIST_ENTRIES + 2 }, (_, index) => index);
    const counted = countList(entries.slice(0, MAX_STORED_LIST_ENTRIES), marks(null), entries.slice(2));
    expect(counted).toEqual({ added: [MAX_STORED_LIST_ENTRIES, MAX_STORED_LIST_ENTRIES + 1], marks: marks(1) });
    // A reinstalled device: the counted entries it no longer sends stay, the newest of them.
    const emptied = countList(entries.slice(2), marks(1), [MAX_STORED_LIST_ENTRIES + 5]);
    expect(emptied.added).toEqual([MAX_STORED_LIST_ENTRIES + 5]);
    expect(emptied.marks).toEqual(marks(2, entries.slice(3)));
  });
});

describe('insightChanges: one write of a user state', () => {
  const day = 20_000;
  const at = (days: number, ms = 0) => (day + days) * DAY_MS + ms;
  const keepsAll = () => true;

  it('counts new entries on their UTC day, a first action as a new user, and the machines per state', () => {
    const before = stateOf({}, { a: '0' });
    const baseline = insightBaseline(before, '[]');
    const after = stateOf({ actionDoneAt: [at(1, 5), at(0, DAY_MS - 1)], resetAt: [at(1)] }, { a: '1', b: '1' });
    const { changes, marks } = insightChanges(baseline, after, keepsAll);
    expect(JSON.parse(marks)).toEqual([['7', { f: at(0, DAY_MS - 1) }]]);
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

  it("keeps a CTA's marks while the catalogue keeps its state, drops them with it, and counts no change at all as nothing", () => {
    const state = stateOf({ actionDoneAt: [at(0)] }, { a: '2' });
    const marks = JSON.stringify([['7', { f: at(0) }]]);
    const baseline = insightBaseline(state, marks);
    expect(insightChanges(baseline, state, keepsAll)).toEqual({ changes: [], marks });
    state.ctas.delete('7');
    // Emptied by the device: the entry stays counted.
    expect(insightChanges(baseline, state, keepsAll)).toEqual({
      changes: [{ ctaId: '7', days: [], users: -1, states: [['2', -1]] }],
      marks: JSON.stringify([['7', { a: [at(0)], f: at(0) }]]),
    });
    // Concluded, terminated or gone: the marks go with the state.
    expect(insightChanges(baseline, state, () => false)).toEqual({
      changes: [{ ctaId: '7', days: [], users: -1, states: [['2', -1]] }],
      marks: '[]',
    });
    // Marks of a CTA without state stay as they are, or go with the CTA.
    const onlyMarks = insightBaseline(emptyUserState(), marks);
    expect(insightChanges(onlyMarks, emptyUserState(), keepsAll)).toEqual({ changes: [], marks });
    expect(insightChanges(onlyMarks, emptyUserState(), () => false)).toEqual({ changes: [], marks: '[]' });
  });

  it('counts an entry once for the user, whichever device sends it in any order, after a reinstall emptied a list', () => {
    const [a, b] = [at(1), at(3)];
    const sends = [[a], [], [b], [a]];
    const orders = [
      [0, 1, 2, 3],
      [1, 2, 0, 3],
      [2, 0, 1, 3],
      [2, 3, 1, 0],
      [3, 2, 1, 0],
    ];
    for (const order of orders) {
      let state = emptyUserState();
      let marks: string | null = '[]';
      const counted = new CtaCounts();
      for (const index of order) {
        const next = stateOf({ actionDoneAt: sends[index] });
        if (sends[index].length === 0) next.ctas.delete('7');
        const write = insightChanges(insightBaseline(state, marks), next, keepsAll);
        write.changes.forEach((change) => counted.add(change));
        [state, marks] = [next, write.marks];
      }
      const days = [...counted.days].sort(([x], [y]) => x - y);
      expect({ order, days, reached: counted.usersReached }).toEqual({
        order,
        days: [
          [day + 1, [1, 0, 1]],
          [day + 3, [1, 0, 0]],
        ],
        reached: 1,
      });
    }
  });

  it('moves a new user to the day of an earlier first action that arrives later', () => {
    const later = insightChanges(insightBaseline(emptyUserState(), '[]'), stateOf({ actionDoneAt: [at(3)] }), keepsAll);
    const earlier = insightChanges(
      insightBaseline(stateOf({ actionDoneAt: [at(3)] }), later.marks),
      stateOf({ actionDoneAt: [at(1)] }),
      keepsAll,
    );
    expect(earlier.changes).toEqual([
      {
        ctaId: '7',
        days: [
          [day + 1, 1, 0, 1],
          [day + 3, 0, 0, -1],
        ],
        users: 0,
        states: [],
      },
    ]);
    expect(JSON.parse(earlier.marks)).toEqual([['7', { a: [at(3)], f: at(1) }]]);
  });

  it(`keeps at most ${MAX_COUNTED_EXTRA} extra entries of a user, all lists together: the oldest raise their floor`, () => {
    const entries = (from: number, count: number) => Array.from({ length: count }, (_, index) => at(0, from + index));
    const before = emptyUserState();
    before.ctas.set('7', { activeStateMachines: new Map(), actionDoneAt: entries(0, 600), resetAt: [] });
    before.ctas.set('8', { activeStateMachines: new Map(), actionDoneAt: entries(1000, 600), resetAt: [] });
    const { marks } = insightChanges(insightBaseline(before, '[]'), emptyUserState(), keepsAll);
    const kept = new Map(JSON.parse(marks) as [string, { a?: number[]; af?: number }][]);
    expect(kept.get('7')).toEqual({ a: entries(200, 400), af: at(0, 199) });
    expect(kept.get('8')).toEqual({ a: entries(1000, 600) });
  });

  it('starts from the stored list without marks, and reads the marks of the build before: no user counted again, no entry past any date', () => {
    const { changes, marks } = insightChanges(
      insightBaseline(stateOf({ actionDoneAt: [at(0)] }), null),
      stateOf({ actionDoneAt: [at(0), at(2), 9e15] }),
      keepsAll,
    );
    expect(changes).toEqual([{ ctaId: '7', days: [[day + 2, 1, 0, 0]], users: 0, states: [] }]);
    expect(JSON.parse(marks)).toEqual([]);
    const legacy = JSON.stringify([['7', [[at(3), 1], null]]]);
    const resent = insightChanges(
      insightBaseline(stateOf({ actionDoneAt: [at(3)] }), legacy),
      stateOf({ actionDoneAt: [at(2), at(4)] }),
      keepsAll,
    );
    expect(resent.changes).toEqual([{ ctaId: '7', days: [[day + 4, 1, 0, 0]], users: 0, states: [] }]);
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
