import { setTimeout as sleep } from 'node:timers/promises';
import { AdminClient } from './admin-client';
import { dataSourceOf } from './database-contents';
import { EXAMPLE_TIME, machine, runClockAfterExamples, sdkHeaders } from './fixtures';
import { createDatabase, eachDatabase, TEST_DATABASES, TestApp } from './harness';

const LAUNCH = '/cta/active/state-machines/';
const DELTA = '/cta/state-machines/snapshot/delta/';
const EMPTY_LAUNCH = { data: { ctas: [], behaviourTags: [] } };
const LONG_REVALIDATE_MS = 60_000;

const randomTenant = () => `unknown-${Math.random().toString(36).slice(2, 12)}`;
const snapshot = (ctaId: string, key: string) => ({ ctas: [{ ctaId, activeStateMachines: { [key]: machine('1', EXAMPLE_TIME) } }] });

/** Counts the statements the app sends its database from now on: SQLite statements run, MySQL queries and executes. */
async function countStatements(api: TestApp): Promise<{ count: () => number; stop: () => void }> {
  const driver = dataSourceOf(api).driver as unknown as {
    databaseConnection?: { prepare(sql: string): object };
    pool?: { getConnection(callback: (error: Error | null, connection: { release(): void }) => void): void };
  };
  let spies: jest.SpyInstance[];
  if (api.database === 'sqlite') {
    const statement = driver.databaseConnection!.prepare('SELECT 1').constructor.prototype as Record<string, () => unknown>;
    spies = (['run', 'get', 'all', 'iterate'] as const).map((method) => jest.spyOn(statement, method));
  } else {
    // Every pooled connection (TypeORM's, and the hot paths' driver calls) is one of these.
    const connection = await new Promise<{ release(): void }>((resolve, reject) =>
      driver.pool!.getConnection((error, pooled) => (error ? reject(error) : resolve(pooled))),
    );
    connection.release();
    const pooled = Object.getPrototypeOf(connection) as Record<string, () => unknown>;
    spies = (['query', 'execute'] as const).map((method) => jest.spyOn(pooled, method));
  }
  return {
    count: () => spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0),
    stop: () => spies.forEach((spy) => spy.mockRestore()),
  };
}

eachDatabase('tenant ids that never had a catalogue', (database) => {
  let api: TestApp;

  beforeAll(async () => {
    api = await TestApp.start(database, { CACHE_REVALIDATE_MS: String(LONG_REVALIDATE_MS) });
    runClockAfterExamples(api);
  });
  afterAll(() => api.close());

  it('answer launches and deltas of any number of them with one check of all tenants per CACHE_REVALIDATE_MS', async () => {
    // The first one reads which tenants exist.
    expect((await api.post(LAUNCH, undefined, sdkHeaders(randomTenant(), '1'))).body).toEqual(EMPTY_LAUNCH);
    const statements = await countStatements(api);
    try {
      const answers = await Promise.all([
        ...Array.from({ length: 300 }, (_, index) =>
          api.post(LAUNCH, index % 2 ? {} : undefined, sdkHeaders(randomTenant(), String(index))),
        ),
        ...Array.from({ length: 100 }, (_, index) => api.post(DELTA, {}, sdkHeaders(randomTenant(), String(index)))),
      ]);
      expect(
        answers.slice(0, 300).every((answer) => answer.status === 200 && JSON.stringify(answer.body) === JSON.stringify(EMPTY_LAUNCH)),
      ).toBe(true);
      expect(answers.slice(300).every((answer) => answer.status === 200 && answer.body.data === true)).toBe(true);
      expect(statements.count()).toBe(0);

      // Snapshots are ignored only after a check made since they arrived: one, for all of them.
      const tenants = Array.from({ length: 50 }, randomTenant);
      const deltas = await Promise.all(
        tenants.map((tenantId, index) => api.post(DELTA, snapshot(String(index + 1), 'k'), sdkHeaders(tenantId, '1'))),
      );
      expect(deltas.every((answer) => answer.status === 200 && answer.body.data === true)).toBe(true);
      const launches = await Promise.all(tenants.map((tenantId) => api.post(LAUNCH, snapshot('1', 'k'), sdkHeaders(tenantId, '2'))));
      expect(launches.every((answer) => JSON.stringify(answer.body) === JSON.stringify(EMPTY_LAUNCH))).toBe(true);
      // The check after the deltas arrived, and one after the launches did (the counting works: it is not zero).
      expect(statements.count()).toBeGreaterThanOrEqual(1);
      expect(statements.count()).toBeLessThanOrEqual(2);
    } finally {
      statements.stop();
    }
    const stored = await dataSourceOf(api).query("SELECT COUNT(*) AS count FROM sdk_user_states WHERE tenant_id LIKE 'unknown-%'");
    expect(Number(stored[0].count)).toBe(0);
  });

  it('serves a tenant created on this instance at once, however fresh its last check of all tenants', async () => {
    const tenantId = randomTenant();
    expect((await api.post(LAUNCH, undefined, sdkHeaders(tenantId, '1'))).body).toEqual(EMPTY_LAUNCH);
    const ctaId = await new AdminClient(api, tenantId).cta();
    expect((await api.post(DELTA, snapshot(ctaId, 'k'), sdkHeaders(tenantId, '1'))).body).toEqual({ data: true });
    const launched = await api.post(LAUNCH, undefined, sdkHeaders(tenantId, '1'));
    expect(
      launched.body.data.ctas.map((cta: { ctaId: string; activeStateMachines: object }) => [
        cta.ctaId,
        Object.keys(cta.activeStateMachines),
      ]),
    ).toEqual([[ctaId, ['k']]]);
  });
});

const describeOnMysql = TEST_DATABASES.includes('mysql') ? describe : describe.skip;

describeOnMysql('a tenant created through another instance [mysql]', () => {
  const REVALIDATE_MS = 1000;
  let writer: TestApp;
  let reader: TestApp;
  let stale: TestApp;
  let dropDatabase: () => Promise<void>;

  beforeAll(async () => {
    const { url, drop } = await createDatabase('mysql');
    dropDatabase = drop;
    writer = await TestApp.join('mysql', url, { CACHE_REVALIDATE_MS: String(REVALIDATE_MS) });
    reader = await TestApp.join('mysql', url, { CACHE_REVALIDATE_MS: String(REVALIDATE_MS) });
    stale = await TestApp.join('mysql', url, { CACHE_REVALIDATE_MS: '600000' });
    [writer, reader, stale].forEach(runClockAfterExamples);
  });
  afterAll(async () => {
    await Promise.all([writer, reader, stale].map((app) => app?.close()));
    await dropDatabase?.();
  });

  it('is served by the others within CACHE_REVALIDATE_MS + 200 ms', async () => {
    const tenantId = randomTenant();
    expect((await reader.post(LAUNCH, undefined, sdkHeaders(tenantId, '1'))).body).toEqual(EMPTY_LAUNCH);
    const ctaId = await new AdminClient(writer, tenantId).cta();
    const createdAt = Date.now();
    let servedAfter = Number.POSITIVE_INFINITY;
    while (Date.now() - createdAt < REVALIDATE_MS + 2000) {
      const launched = await reader.post(LAUNCH, undefined, sdkHeaders(tenantId, '1'));
      if (launched.body.data.ctas.length > 0) {
        expect(launched.body.data.ctas[0].ctaId).toBe(ctaId);
        servedAfter = Date.now() - createdAt;
        break;
      }
      await sleep(20);
    }
    expect(servedAfter).toBeLessThanOrEqual(REVALIDATE_MS + 200);
  });

  it('loses nothing an instance that has not checked since receives for it (the stale-catalogue rule)', async () => {
    const tenantId = randomTenant();
    // The stale instance checks all tenants now, and then not again for its CACHE_REVALIDATE_MS.
    expect((await stale.post(LAUNCH, undefined, sdkHeaders(tenantId, '1'))).body).toEqual(EMPTY_LAUNCH);
    const ctaId = await new AdminClient(writer, tenantId).cta();
    expect((await stale.post(DELTA, snapshot(ctaId, 'via-stale'), sdkHeaders(tenantId, '1'))).body).toEqual({ data: true });
    const launched = await writer.post(LAUNCH, undefined, sdkHeaders(tenantId, '1'));
    expect(Object.keys(launched.body.data.ctas[0].activeStateMachines)).toEqual(['via-stale']);
    // And it serves the tenant from then on.
    expect(
      (await stale.post(LAUNCH, undefined, sdkHeaders(tenantId, '2'))).body.data.ctas.map((cta: { ctaId: string }) => cta.ctaId),
    ).toEqual([ctaId]);
  });
});
