import { blockNames, ServingAudience, ServingCandidate, servingBlocks } from './serving-decision';

const NOW = 1_000;
const cta = (fields: Partial<ServingCandidate> = {}): ServingCandidate => ({
  id: 7,
  status: 'live',
  startTime: null,
  endTime: null,
  isTest: false,
  expiresAt: null,
  eligibility: { includes: ['all'], excludes: [] },
  capExempt: false,
  ...fields,
});
const everyone: ServingAudience = { cohorts: ['all'], testCtas: undefined, overCap: false };
const reasons = (fields: Partial<ServingCandidate>, audience = everyone): string[] => blockNames(servingBlocks(cta(fields), audience, NOW));

describe('servingBlocks: the time and status of a CTA', () => {
  it.each<[string, Partial<ServingCandidate>, string[]]>([
    ['a live CTA', {}, []],
    ['a live CTA before its end', { endTime: NOW + 1 }, []],
    ['a live CTA at its end, not yet concluded', { endTime: NOW }, ['ENDED']],
    ['a scheduled CTA at its start', { status: 'scheduled', startTime: NOW }, []],
    ['a scheduled CTA before its start', { status: 'scheduled', startTime: NOW + 1 }, ['NOT_STARTED']],
    ['a scheduled CTA without a start', { status: 'scheduled' }, ['NOT_STARTED']],
    ['a paused CTA', { status: 'paused' }, ['NOT_LIVE']],
    ['a paused CTA past its end', { status: 'paused', endTime: NOW - 1 }, ['NOT_LIVE', 'ENDED']],
    ['a draft CTA', { status: 'draft' }, ['NOT_LIVE']],
    ['a concluded CTA', { status: 'concluded', endTime: NOW - 1 }, ['NOT_LIVE', 'ENDED']],
    ['a terminated CTA', { status: 'terminated' }, ['NOT_LIVE']],
  ])('%s: %j', (_case, fields, expected) => {
    expect(reasons(fields)).toEqual(expected);
  });
});

describe('servingBlocks: cohorts', () => {
  it.each<[ServingCandidate['eligibility'], string[], string[]]>([
    [{ includes: ['all'], excludes: [] }, ['all'], []],
    [{ includes: ['all'], excludes: ['paying_users'] }, ['all'], []],
    [{ includes: ['all'], excludes: ['paying_users'] }, ['all', 'paying_users'], ['EXCLUDED']],
    [{ includes: ['beta'], excludes: [] }, ['all'], ['NOT_INCLUDED']],
    [{ includes: ['beta', 'all'], excludes: [] }, ['all'], []],
    [{ includes: ['beta'], excludes: [] }, [], ['NOT_INCLUDED']],
    [{ includes: [], excludes: [] }, ['all'], ['NOT_INCLUDED']],
    [{ includes: ['beta'], excludes: ['all'] }, ['all'], ['NOT_INCLUDED', 'EXCLUDED']],
  ])('%j with cohorts %j: %j', (eligibility, cohorts, expected) => {
    expect(reasons({ eligibility }, { cohorts, testCtas: undefined, overCap: false })).toEqual(expected);
  });
});

describe('servingBlocks: the exposure cap', () => {
  const overCap: ServingAudience = { ...everyone, overCap: true };

  it('withholds a CTA from a user over the cap unless it is capExempt, beside its other reasons', () => {
    expect(reasons({}, overCap)).toEqual(['EXPOSURE_CAP_REACHED']);
    expect(reasons({ capExempt: true }, overCap)).toEqual([]);
    expect(reasons({ status: 'paused' }, overCap)).toEqual(['NOT_LIVE', 'EXPOSURE_CAP_REACHED']);
  });

  it('serves the test CTAs listing the user however many actions they had', () => {
    expect(reasons({ isTest: true, expiresAt: NOW + 1 }, { ...overCap, testCtas: new Set([7]) })).toEqual([]);
  });
});

describe('servingBlocks: test CTAs', () => {
  const listing = (ids: number[]): ServingAudience => ({ cohorts: [], testCtas: new Set(ids), overCap: false });

  it('serves an unexpired test CTA to the users it lists, whatever their cohorts', () => {
    expect(reasons({ isTest: true, expiresAt: NOW + 1, eligibility: { includes: ['beta'], excludes: ['all'] } }, listing([7]))).toEqual([]);
  });

  it('names an expiry reached and a user not listed', () => {
    expect(reasons({ isTest: true, expiresAt: NOW }, listing([7]))).toEqual(['TEST_CTA_EXPIRED']);
    expect(reasons({ isTest: true, expiresAt: NOW + 1 }, listing([8]))).toEqual(['TEST_CTA_NOT_LISTED']);
    expect(reasons({ isTest: true, expiresAt: NOW }, everyone)).toEqual(['TEST_CTA_EXPIRED', 'TEST_CTA_NOT_LISTED']);
  });
});
