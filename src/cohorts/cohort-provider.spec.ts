import { AllUsersCohortProvider, isCohortEligible } from './cohort-provider';

describe('AllUsersCohortProvider', () => {
  it('puts every user in the cohort all', async () => {
    await expect(new AllUsersCohortProvider().cohortsOf('t1', '-9223372036854775808', {})).resolves.toEqual(['all']);
  });
});

describe('isCohortEligible', () => {
  it.each([
    [{ includes: ['all'], excludes: [] }, ['all'], true],
    [{ includes: ['all'], excludes: ['paying_users'] }, ['all'], true],
    [{ includes: ['all'], excludes: ['paying_users'] }, ['all', 'paying_users'], false],
    [{ includes: ['beta'], excludes: [] }, ['all'], false],
    [{ includes: ['beta', 'all'], excludes: [] }, ['all'], true],
    [{ includes: ['beta'], excludes: [] }, [], false],
    [{ includes: [], excludes: [] }, ['all'], false],
  ])('%j with cohorts %j → %s', (eligibility, cohorts, expected) => {
    expect(isCohortEligible(eligibility, cohorts)).toBe(expected);
  });
});
