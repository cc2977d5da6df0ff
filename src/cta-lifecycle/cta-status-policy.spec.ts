import {
  CtaEdit,
  CtaTiming,
  EDITABLE_STATUSES,
  EditedCta,
  editRefusal,
  IN_PLAY_STATUSES,
  keepsUserStateAt,
  LIVE_EDIT_STATUSES,
  RUNNING_STATUSES,
  sentStartTime,
  TAG_CHANGEABLE_STATUSES,
  TAG_LINKABLE_STATUSES,
} from './cta-status-policy';

const NOW = 1_000;
const cta = (fields: Partial<CtaTiming> = {}): CtaTiming => ({
  status: 'live',
  startTime: null,
  endTime: null,
  isTest: false,
  expiresAt: null,
  ...fields,
});

describe('status sets', () => {
  it('name the statuses the decision records give (status lifecycle, behaviour tags, user state, cohorts)', () => {
    expect(RUNNING_STATUSES).toEqual(['live', 'scheduled']);
    expect(IN_PLAY_STATUSES).toEqual(['live', 'scheduled', 'paused']);
    expect(EDITABLE_STATUSES).toEqual(['draft', 'paused']);
    expect(TAG_LINKABLE_STATUSES).toEqual(['draft', 'paused']);
    expect(TAG_CHANGEABLE_STATUSES).toEqual(['draft', 'paused', 'concluded', 'terminated']);
  });
});

describe('keepsUserStateAt', () => {
  it.each<[string, Partial<CtaTiming>, boolean]>([
    ['a live CTA', {}, true],
    ['a live CTA before its end', { endTime: NOW + 1 }, true],
    ['a live CTA at its end, not yet concluded', { endTime: NOW }, true],
    ['a scheduled CTA at its start', { status: 'scheduled', startTime: NOW }, true],
    ['a scheduled CTA before its start', { status: 'scheduled', startTime: NOW + 1 }, false],
    ['a scheduled CTA without a start', { status: 'scheduled' }, false],
    ['a paused CTA', { status: 'paused' }, true],
    ['a draft CTA', { status: 'draft' }, false],
    ['a concluded CTA', { status: 'concluded' }, false],
    ['a terminated CTA', { status: 'terminated' }, false],
    ['a test CTA before its expiry', { isTest: true, expiresAt: NOW + 1 }, true],
    ['a test CTA at its expiry', { isTest: true, expiresAt: NOW }, false],
  ])("%s: keeps its users' state %p", (_case, fields, keepsState) => {
    expect(keepsUserStateAt(cta(fields), NOW)).toBe(keepsState);
  });
});

describe('editRefusal', () => {
  const NOW_MS = 1_000_000;
  const cta = (status: CtaTiming['status'], fields: Partial<EditedCta> = {}): EditedCta => ({
    id: 12,
    status,
    startTime: NOW_MS - 100,
    endTime: null,
    ...fields,
  });
  const edit = (fields: Partial<CtaEdit> = {}): CtaEdit => ({ stateGraph: null, startTime: undefined, endTime: undefined, ...fields });
  const newState = { problems: [{ path: 'rule.stateTransition', message: 'state "3" is new' }], changes: 'its states' };

  it('lets draft and paused CTAs take any edit, and no concluded or terminated one', () => {
    for (const status of ['draft', 'paused'] as const) {
      expect(editRefusal(cta(status), edit({ stateGraph: newState, startTime: null, endTime: 0 }), NOW_MS)).toBeNull();
    }
    expect(editRefusal(cta('concluded'), edit(), NOW_MS)).toBe('CTA 12 is concluded; concluded and terminated CTAs cannot be edited');
    expect(editRefusal(cta('terminated'), edit(), NOW_MS)).toBe('CTA 12 is terminated; concluded and terminated CTAs cannot be edited');
  });

  it('lets live and scheduled CTAs take an edit keeping their state graph, naming a change and the way out', () => {
    expect(LIVE_EDIT_STATUSES).toEqual(['live', 'scheduled']);
    for (const status of LIVE_EDIT_STATUSES) {
      expect(editRefusal(cta(status), edit(), NOW_MS)).toBeNull();
      expect(editRefusal(cta(status), edit({ stateGraph: newState }), NOW_MS)).toBe(
        'rule.stateTransition: state "3" is new; pause CTA 12 to change its states',
      );
    }
  });

  it('reads a null start as kept once the CTA has left draft, and clears only a draft start', () => {
    expect(sentStartTime('draft', null)).toBeNull();
    for (const status of ['scheduled', 'live', 'paused'] as const) {
      expect(sentStartTime(status, null)).toBeUndefined();
      expect(sentStartTime(status, 5)).toBe(5);
    }
    expect(sentStartTime('live', undefined)).toBeUndefined();
  });

  it.each<[string, EditedCta, Partial<CtaEdit>, RegExp | null]>([
    ['a live start kept, however old', cta('live', { startTime: 5 }), { startTime: 5 }, null],
    ['a live start moved back', cta('live'), { startTime: 1 }, null],
    ['a live start at now', cta('live'), { startTime: NOW_MS }, null],
    ['a live start in the future', cta('live'), { startTime: NOW_MS + 1 }, /^startTime: .* is in the future .*pause it, then schedule it$/],
    ['a live start sent as null (kept)', cta('live'), { startTime: null }, null],
    ['a scheduled start moved ahead', cta('scheduled', { startTime: NOW_MS + 10 }), { startTime: NOW_MS + 99 }, null],
    ['a scheduled start kept though passed', cta('scheduled'), { startTime: NOW_MS - 100 }, null],
    [
      'a scheduled start moved into the past',
      cta('scheduled', { startTime: NOW_MS + 10 }),
      { startTime: NOW_MS - 1 },
      /is in the past .*CTA 12 is scheduled, so/,
    ],
    ['a scheduled start sent as null (kept)', cta('scheduled', { startTime: NOW_MS + 10 }), { startTime: null }, null],
    ['an end cleared', cta('live', { endTime: NOW_MS + 5 }), { endTime: null }, null],
    ['an end in the past', cta('live'), { endTime: NOW_MS - 1 }, /^endTime: .* is in the past .*: to end CTA 12 now, conclude it$/],
    ['a scheduled end in the past', cta('scheduled'), { endTime: NOW_MS - 1 }, /terminate it$/],
    ['an end kept though passed', cta('live', { endTime: NOW_MS - 1 }), { endTime: NOW_MS - 1 }, null],
  ])('%s', (_case, edited, times, refusal) => {
    const answer = editRefusal(edited, edit(times), NOW_MS);
    if (refusal === null) expect(answer).toBeNull();
    else expect(answer).toMatch(refusal);
  });
});
