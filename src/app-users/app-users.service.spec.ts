import { createHash } from 'node:crypto';
import { CREATE_EXAMPLE } from '../api-docs/flow-examples';
import type { ChangeOrigin } from '../audit/audit.types';
import { CohortMembersService } from '../cohorts/cohort-members.service';
import { CohortsService } from '../cohorts/cohorts.service';
import { ErrorCode } from '../common/error-code';
import { TestCtasService } from '../ctas/test-ctas.service';
import { refusal, unitTestModule, type UnitTestModule } from '../../test/unit-test-module';
import { AppUsersModule } from './app-users.module';
import { AppUsersService, erasedUserKey } from './app-users.service';

const origin: ChangeOrigin = { actor: 'ops-key', user: 'alice@example.com', requestId: 'req-1' };
const NO_STATE = { ctas: [], behaviourTags: [], recentActions: [] };
const stateOf = (ctaId: number) => ({
  ctas: [{ ctaId: String(ctaId), activeStateMachines: {}, resetAt: [100], actionDoneAt: [200] }],
  behaviourTags: [],
  recentActions: [],
});

describe('AppUsersService', () => {
  let app: UnitTestModule;
  let users: AppUsersService;
  let shared: number;
  let alone: number;
  beforeEach(async () => {
    app = await unitTestModule([AppUsersModule]);
    users = app.get(AppUsersService);
    await app.get(CohortsService).create('t1', 'alice', { name: 'vip', kind: 'static' }, origin);
    await app.get(CohortsService).create('t1', 'alice', { name: 'beta', kind: 'static' }, origin);
    await app.get(CohortMembersService).add('t1', 'alice', 'vip', { kind: 'json', body: { userIds: ['42', '7'] } }, origin);
    const testCta = (userIds: string[]) =>
      app
        .get(TestCtasService)
        .create('t1', 'qa', { rule: structuredClone(CREATE_EXAMPLE.rule) as never, userIds, expiresInMinutes: 5 }, origin);
    shared = await testCta(['42', '7']);
    alone = await testCta(['42']);
    // User 42's SDK state as devices left it (the SDK's own specs build it through the merge): one CTA's resets and actions.
    await app.dataSource.query('INSERT INTO sdk_user_states (tenant_id, user_id, state, version, updated_at) VALUES (?, ?, ?, 1, 0)', [
      't1',
      '42',
      `{"ctas":[["${shared}",{"activeStateMachines":[],"resetAt":[100],"actionDoneAt":[200]}]],"tags":[]}`,
    ]);
  });
  afterEach(() => app.close());

  /** The ids of the audit entries whose documents name user 42 (the test CTA creates listing them). */
  const entriesNaming42 = async () =>
    (await app.auditEntries())
      .filter((entry) => entry.entityType === 'testCta' && (entry.after as { userIds: string[] }).userIds.includes('42'))
      .map((entry) => entry.id);

  it('exports what each feature holds about the user, and nothing of another tenant or user', async () => {
    expect(await users.export('t1', '042')).toEqual({
      userId: '42',
      state: stateOf(shared),
      cohorts: ['vip'],
      testCtas: [shared, alone],
      auditEntries: await entriesNaming42(),
    });
    expect(await users.export('t2', '42')).toEqual({ userId: '42', state: NO_STATE, cohorts: [], testCtas: [], auditEntries: [] });
  });

  it('erases the user everywhere in one write, answering the counts and recording them under a key that names nobody', async () => {
    const naming = await entriesNaming42();
    expect(naming).toHaveLength(2);
    const revision = await app.catalogueRevision('t1');
    expect(await users.erase('t1', '42', origin)).toEqual({ state: true, cohorts: 1, testCtas: 2, auditEntries: 2 });
    expect(await users.export('t1', '42')).toEqual({ userId: '42', state: NO_STATE, cohorts: [], testCtas: [], auditEntries: [] });
    // The other user keeps their cohort and list; the test CTA left with nobody is gone.
    expect(await users.export('t1', '7')).toMatchObject({ cohorts: ['vip'], testCtas: [shared] });
    expect(await app.get(TestCtasService).testCtasOf(app.dataSource.manager, 't1', '42')).toEqual([]);
    expect(await app.catalogueRevision('t1')).toBe(revision + 1);
    const erase = (await app.auditEntries()).at(-1);
    expect(erase).toMatchObject({
      tenantId: 't1',
      entityType: 'appUser',
      entityId: erasedUserKey('t1', '42'),
      action: 'erase',
      actor: 'ops-key',
      before: null,
      after: { state: true, cohorts: 1, testCtas: 2, auditEntries: 2 },
    });
    expect(JSON.stringify(erase)).not.toContain('"42"');
  });

  it('answers zeros for a second erase, or a user with nothing stored', async () => {
    await users.erase('t1', '42', origin);
    expect(await users.erase('t1', '42', origin)).toEqual({ state: false, cohorts: 0, testCtas: 0, auditEntries: 0 });
    expect(await users.erase('t2', '42', origin)).toEqual({ state: false, cohorts: 0, testCtas: 0, auditEntries: 0 });
  });

  it('refuses a user id that is no signed 64-bit integer (INVALID_REQUEST)', async () => {
    for (const work of [users.export('t1', 'alice'), users.erase('t1', '9223372036854775808', origin)]) {
      expect((await refusal(work)).code).toBe(ErrorCode.INVALID_REQUEST);
    }
    expect(await refusal(users.export('t1', 'alice'))).toEqual({
      code: ErrorCode.INVALID_REQUEST,
      message: 'userId "alice" is not a signed 64-bit integer',
    });
  });

  it('keys the erase entry by the SHA-256 of tenant and user', () => {
    expect(erasedUserKey('t1', '42')).toBe(createHash('sha256').update('t1:42').digest('hex'));
    expect(erasedUserKey('t1', '42')).not.toBe(erasedUserKey('t2', '42'));
  });
});
