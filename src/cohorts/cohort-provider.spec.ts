import { AllUsersCohortProvider } from './cohort-provider';

describe('AllUsersCohortProvider', () => {
  it('puts every user in the cohort all', async () => {
    await expect(new AllUsersCohortProvider().cohortsOf('t1', '-9223372036854775808', {})).resolves.toEqual(['all']);
  });
});
