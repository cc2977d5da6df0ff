import { foldRecentActions, UserActions, NO_RECENT_ACTIONS, parseRecentActions, recentActionsText } from './recent-actions';
import { emptyUserState, MAX_STORED_LIST_ENTRIES, UserState } from './user-state';

const stateWith = (actions: Record<string, number[]>): UserState => {
  const state = emptyUserState();
  for (const [ctaId, actionDoneAt] of Object.entries(actions)) {
    state.ctas.set(ctaId, { activeStateMachines: new Map(), resetAt: [], actionDoneAt });
  }
  return state;
};

describe('foldRecentActions', () => {
  it("records the state's actions newest first, each once, and answers the same record when nothing is new", () => {
    const recorded = foldRecentActions(NO_RECENT_ACTIONS, stateWith({ '2': [10, 30], '1': [30] }));
    expect(recorded).toEqual([30, 1, 30, 2, 10, 2]);
    expect(foldRecentActions(recorded, stateWith({ '2': [30] }))).toBe(recorded);
    // A CTA whose state was pruned keeps its actions in the record.
    expect(foldRecentActions(recorded, stateWith({ '3': [20] }))).toEqual([30, 1, 30, 2, 20, 3, 10, 2]);
  });

  it('keeps the newest MAX_STORED_LIST_ENTRIES actions, and adds none older than a full record holds', () => {
    const many = Array.from({ length: MAX_STORED_LIST_ENTRIES + 5 }, (_, index) => 1000 + index);
    const recorded = foldRecentActions(NO_RECENT_ACTIONS, stateWith({ '1': many }));
    expect(recorded).toHaveLength(2 * MAX_STORED_LIST_ENTRIES);
    expect(recorded[recorded.length - 2]).toBe(1005);
    expect(foldRecentActions(recorded, stateWith({ '2': [1] }))).toBe(recorded);
  });

  it('keeps the newest of a body with tens of thousands of actions across CTAs', () => {
    const actions: Record<string, number[]> = {};
    for (let cta = 1; cta <= 70; cta++) actions[String(cta)] = Array.from({ length: 1000 }, (_, index) => index * 100 + cta);
    const recorded = foldRecentActions(NO_RECENT_ACTIONS, stateWith(actions));
    expect(recorded).toHaveLength(2 * MAX_STORED_LIST_ENTRIES);
    expect(recorded.slice(0, 4)).toEqual([99_970, 70, 99_969, 69]);
    expect(recorded[recorded.length - 2]).toBe(985 * 100 + 51);
  });

  it('round-trips through its stored text (null when empty)', () => {
    expect(recentActionsText(NO_RECENT_ACTIONS)).toBeNull();
    expect(parseRecentActions(recentActionsText([5, 1]))).toEqual([5, 1]);
    expect(parseRecentActions(null)).toEqual([]);
  });
});

describe('UserActions', () => {
  it("counts the record's actions and the state's not recorded yet, since an instant, once each", () => {
    const recorded = [50, 1, 40, 2, 10, 1];
    const actions = UserActions.recorded(recorded, stateWith({ '1': [50, 45, 45], '2': [40], '3': [5] }));
    expect(actions.countSince(20)).toBe(3);
    expect(actions.timesSince(20)).toEqual([50, 45, 40]);
    expect(actions.countSince(0)).toBe(5);
    expect(actions.timesSince(0)).toEqual([50, 45, 40, 10, 5]);
  });

  it('reads the record from its stored text, and tells an action of another CTA at a recorded time from it', () => {
    const actions = new UserActions(recentActionsText([30, 1, 30, 3]), stateWith({ '2': [30], '3': [30] }));
    expect(actions.countSince(30)).toBe(3);
    expect(actions.timesSince(30)).toEqual([30, 30, 30]);
    expect(new UserActions(null, stateWith({})).countSince(0)).toBe(0);
  });
});
