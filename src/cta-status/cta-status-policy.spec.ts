import {
  CtaTiming,
  EDITABLE_STATUSES,
  IN_PLAY_STATUSES,
  isServableAt,
  keepsUserStateAt,
  RUNNING_STATUSES,
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

describe('isServableAt and keepsUserStateAt', () => {
  it.each<[string, Partial<CtaTiming>, boolean, boolean]>([
    ['a live CTA', {}, true, true],
    ['a live CTA before its end', { endTime: NOW + 1 }, true, true],
    ['a live CTA at its end, not yet concluded', { endTime: NOW }, false, true],
    ['a scheduled CTA at its start', { status: 'scheduled', startTime: NOW }, true, true],
    ['a scheduled CTA before its start', { status: 'scheduled', startTime: NOW + 1 }, false, false],
    ['a scheduled CTA without a start', { status: 'scheduled' }, false, false],
    ['a paused CTA', { status: 'paused' }, false, true],
    ['a draft CTA', { status: 'draft' }, false, false],
    ['a concluded CTA', { status: 'concluded' }, false, false],
    ['a terminated CTA', { status: 'terminated' }, false, false],
    ['a test CTA before its expiry', { isTest: true, expiresAt: NOW + 1 }, true, true],
    ['a test CTA at its expiry', { isTest: true, expiresAt: NOW }, false, false],
  ])("%s: served %p, keeps its users' state %p", (_case, fields, servable, keepsState) => {
    expect(isServableAt(cta(fields), NOW)).toBe(servable);
    expect(keepsUserStateAt(cta(fields), NOW)).toBe(keepsState);
  });
});
