import { CTA_STATUSES, CtaStatus } from './cta-statuses';
import { EDITABLE_STATUSES } from './cta-status-policy';
import { isStatusAction, STATUS_ACTIONS, TIMED_TRANSITIONS, TRANSITIONS } from './cta-transitions';

describe('the CTA transition table (docs/decisions/0002-status-lifecycle-and-live-edits.md)', () => {
  const allowed = (from: CtaStatus) => STATUS_ACTIONS.filter((action) => TRANSITIONS[action].from.includes(from));

  it('allows exactly the moves of the design, per source status', () => {
    expect(Object.fromEntries(CTA_STATUSES.map((status) => [status, allowed(status)]))).toEqual({
      draft: ['live', 'schedule', 'terminate'],
      paused: ['live', 'schedule', 'conclude', 'terminate'],
      live: ['pause', 'conclude', 'terminate'],
      scheduled: ['pause', 'terminate'],
      concluded: [],
      terminated: [],
    });
  });

  it('moves to the named status and stamps the right time', () => {
    expect(STATUS_ACTIONS.map((action) => [action, TRANSITIONS[action].to, TRANSITIONS[action].stamps])).toEqual([
      ['live', 'live', 'startTime'],
      ['pause', 'paused', null],
      ['schedule', 'scheduled', null],
      ['conclude', 'concluded', 'endTime'],
      ['terminate', 'terminated', 'endTime'],
    ]);
    expect(STATUS_ACTIONS.filter((action) => TRANSITIONS[action].needsFutureStart)).toEqual(['schedule']);
  });

  it('never allows a move to the same status', () => {
    for (const action of STATUS_ACTIONS) {
      expect(TRANSITIONS[action].from).not.toContain(TRANSITIONS[action].to);
    }
  });

  it('knows only the five actions', () => {
    expect(STATUS_ACTIONS.every(isStatusAction)).toBe(true);
    for (const unknown of ['publish', 'LIVE', 'toString', '__proto__', 'constructor', '']) {
      expect(isStatusAction(unknown)).toBe(false);
    }
  });

  it('edits only draft and paused CTAs; timed moves start scheduled ones and end live or paused ones', () => {
    expect(EDITABLE_STATUSES).toEqual(['draft', 'paused']);
    expect(TIMED_TRANSITIONS).toEqual([
      { action: 'live', from: ['scheduled'], to: 'live', dueAt: 'startTime' },
      { action: 'conclude', from: ['live', 'paused'], to: 'concluded', dueAt: 'endTime' },
    ]);
  });
});
