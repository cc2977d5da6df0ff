import {
  CtaTiming,
  EDITABLE_STATUSES,
  IN_PLAY_STATUSES,
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
  it('name the statuses of DESIGN §5, §7, §11 and §12', () => {
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
