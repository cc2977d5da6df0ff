import type { ChangeOrigin } from '../audit/audit.types';
import { unitTestModule, type UnitTestModule } from '../../test/unit-test-module';
import { CohortDefinitionReader } from './cohort-definition.reader';
import { CohortMembersService } from './cohort-members.service';
import type { CohortClient } from './cohort-provider';
import { CohortTargeting } from './cohort-targeting';
import { CohortsModule } from './cohorts.module';
import { CohortsService } from './cohorts.service';
import { UserCohortsService } from './user-cohorts.service';

const origin: ChangeOrigin = { actor: 'ops-key', user: 'alice@example.com', requestId: null };
const android: CohortClient = { appVersion: '5.1.0', packageName: 'com.example.android' };

describe('UserCohortsService', () => {
  let app: UnitTestModule;
  let userCohorts: UserCohortsService;
  /** What the host's provider was asked. */
  const asked: [string, string, CohortClient][] = [];
  beforeAll(async () => {
    app = await unitTestModule([CohortsModule], {
      cohortProvider: {
        cohortsOf: async (tenantId, userId, client) => {
          asked.push([tenantId, userId, client]);
          return userId === '1' ? ['all', 'host-gold'] : [];
        },
      },
    });
    userCohorts = app.get(UserCohortsService);
    const cohorts = app.get(CohortsService);
    await cohorts.create('t1', 'alice', { name: 'vip', kind: 'static' }, origin);
    await cohorts.create('t1', 'alice', { name: 'beta', kind: 'static' }, origin);
    const rule = { all: [{ cohort: 'vip' }, { attribute: 'packageName', op: 'eq', value: 'com.example.android' }] };
    await cohorts.create('t1', 'alice', { name: 'vip-android', kind: 'rule', rule }, origin);
    await app.get(CohortMembersService).add('t1', 'alice', 'vip', { kind: 'json', body: { userIds: [1, 2] } }, origin);
    await app.get(CohortMembersService).add('t1', 'alice', 'beta', { kind: 'json', body: { userIds: [1] } }, origin);
  });
  afterAll(() => app.close());

  /** The targeting of a catalogue whose CTAs name `named`. */
  const targeting = async (...named: string[]) =>
    new CohortTargeting(await app.get(CohortDefinitionReader).definitionsOf('t1'), new Set(named));

  it("joins all, the named static cohorts the user is in, the rule cohorts that hold and the host provider's cohorts", async () => {
    const named = await targeting('vip-android', 'beta');
    expect(await userCohorts.cohortsOf('t1', '1', android, named)).toEqual(['all', 'vip', 'beta', 'vip-android', 'host-gold']);
    expect(await userCohorts.cohortsOf('t1', '2', android, named)).toEqual(['all', 'vip', 'vip-android']);
    expect(await userCohorts.cohortsOf('t1', '3', android, named)).toEqual(['all']);
    expect(asked.at(-1)).toEqual(['t1', '3', android]);
  });

  it('does not hold a rule cohort whose conditions fail, though the user is in the static cohort it names', async () => {
    const named = await targeting('vip-android');
    expect(await userCohorts.cohortsOf('t1', '2', { packageName: 'com.example.ios' }, named)).toEqual(['all', 'vip']);
  });

  it('looks up only the static cohorts the catalogue needs: one it does not name is not answered', async () => {
    const named = await targeting('beta');
    expect(named.staticIds).toHaveLength(1);
    expect(await userCohorts.cohortsOf('t1', '2', android, named)).toEqual(['all']);
    expect(await userCohorts.cohortsOf('t2', '1', android, named)).toEqual(['all', 'host-gold']);
  });
});
