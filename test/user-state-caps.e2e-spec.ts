import { AdminClient } from './admin-client';
import { EXAMPLE_TIME, machine, runClockAfterExamples, sdkHeaders } from './fixtures';
import { dataSourceOf } from './database-contents';
import { eachDatabase, TEST_DATABASES, TestApp } from './harness';
import { documentBytes } from '../src/sdk/user-state';

const LAUNCH = '/cta/active/state-machines/';
const DELTA = '/cta/state-machines/snapshot/delta/';
/** Small enough that a few CTAs of padded machines go over it. */
const MAX_USER_STATE_BYTES = 32_768;

/** Machine `index`: states 0-3 in turn, moved `index` ms after EXAMPLE_TIME. */
const numbered = (index: number, extra: Record<string, unknown> = {}) =>
  machine(String(index % 4), EXAMPLE_TIME + index, { createdAt: EXAMPLE_TIME, ...extra });
const machinesFrom = (from: number, count: number, extra: Record<string, unknown> = {}) =>
  Object.fromEntries(Array.from({ length: count }, (_, offset) => [`m${from + offset}`, numbered(from + offset, extra)]));

/** The truncation counter of the `/metrics` text, by reason. */
function truncations(metrics: string, reason: string): number {
  const match = new RegExp(`^cta_state_truncations_total\\{reason="${reason}"\\} (\\d+)$`, 'm').exec(metrics);
  return match ? Number(match[1]) : 0;
}

eachDatabase('bounded per-user state (docs/decisions/0006-user-state-merge.md)', (database) => {
  let api: TestApp;
  let tenantCount = 0;
  const tenant = () => new AdminClient(api, `caps-${++tenantCount}`);
  const metrics = async () => String((await api.get('/metrics')).body);
  const launch = (tenantId: string, userId: string, body?: unknown) => api.post(LAUNCH, body, sdkHeaders(tenantId, userId));
  const machineKeys = async (tenantId: string, userId: string) => {
    const response = await launch(tenantId, userId);
    expect(response.status).toBe(200);
    return Object.fromEntries(
      response.body.data.ctas.map((cta: { ctaId: string; activeStateMachines: object }) => [
        cta.ctaId,
        Object.keys(cta.activeStateMachines),
      ]),
    ) as Record<string, string[]>;
  };
  const storedBytes = async (tenantId: string, userId: string): Promise<number> => {
    const [row] = await dataSourceOf(api).query('SELECT state FROM sdk_user_states WHERE tenant_id = ? AND user_id = ?', [
      tenantId,
      userId,
    ]);
    return documentBytes(row.state);
  };

  beforeAll(async () => {
    api = await TestApp.start(database, { MAX_USER_STATE_BYTES: String(MAX_USER_STATE_BYTES) });
    runClockAfterExamples(api);
  });
  afterAll(() => api.close());

  it('keeps the 100 newest of 150 machines sent for one CTA, answers 200, and counts the 50 dropped', async () => {
    const catalogue = tenant();
    const ctaId = await catalogue.cta();
    const before = truncations(await metrics(), 'machines_per_cta');
    const response = await api.post(
      DELTA,
      { ctas: [{ ctaId, activeStateMachines: machinesFrom(0, 150) }] },
      sdkHeaders(catalogue.tenantId, '1'),
    );
    expect([response.status, response.body]).toEqual([200, { data: true }]);
    expect((await machineKeys(catalogue.tenantId, '1'))[ctaId].sort()).toEqual(Object.keys(machinesFrom(50, 100)).sort());
    expect(truncations(await metrics(), 'machines_per_cta') - before).toBe(50);
  });

  it('drops the oldest stored machines first when newer ones arrive, through launches and deltas', async () => {
    const catalogue = tenant();
    const ctaId = await catalogue.cta();
    expect((await launch(catalogue.tenantId, '2', { ctas: [{ ctaId, activeStateMachines: machinesFrom(100, 80) }] })).status).toBe(200);
    // Older than every stored one, then newer: the cap keeps the newest 100 of the 180.
    expect(
      (await api.post(DELTA, { ctas: [{ ctaId, activeStateMachines: machinesFrom(0, 20) }] }, sdkHeaders(catalogue.tenantId, '2'))).status,
    ).toBe(200);
    expect(
      (await api.post(DELTA, { ctas: [{ ctaId, activeStateMachines: machinesFrom(180, 80) }] }, sdkHeaders(catalogue.tenantId, '2')))
        .status,
    ).toBe(200);
    expect((await machineKeys(catalogue.tenantId, '2'))[ctaId].sort()).toEqual(Object.keys(machinesFrom(160, 100)).sort());
  });

  it('keeps the stored document under MAX_USER_STATE_BYTES, dropping the oldest machines across CTAs', async () => {
    const catalogue = tenant();
    const [first, second] = [await catalogue.cta(), await catalogue.cta()];
    const padding = { context: { note: 'x'.repeat(400) } };
    const before = truncations(await metrics(), 'user_state_bytes');
    // Interleaved ages: the even indexes go to one CTA, the odd to the other; about 90 kB in all.
    const even = Object.fromEntries(Object.entries(machinesFrom(0, 200, padding)).filter((_, index) => index % 2 === 0));
    const odd = Object.fromEntries(Object.entries(machinesFrom(0, 200, padding)).filter((_, index) => index % 2 === 1));
    const response = await api.post(
      DELTA,
      {
        ctas: [
          { ctaId: first, activeStateMachines: even },
          { ctaId: second, activeStateMachines: odd },
        ],
      },
      sdkHeaders(catalogue.tenantId, '3'),
    );
    expect([response.status, response.body]).toEqual([200, { data: true }]);
    expect(await storedBytes(catalogue.tenantId, '3')).toBeLessThanOrEqual(MAX_USER_STATE_BYTES);
    const kept = await machineKeys(catalogue.tenantId, '3');
    const keptIndexes = [...kept[first], ...kept[second]].map((key) => Number(key.slice(1))).sort((x, y) => x - y);
    // Some of each CTA are kept, and exactly the newest ones overall.
    expect(kept[first].length).toBeGreaterThan(0);
    expect(kept[second].length).toBeGreaterThan(0);
    expect(keptIndexes).toEqual(Array.from({ length: keptIndexes.length }, (_, offset) => 200 - keptIndexes.length + offset));
    expect(truncations(await metrics(), 'user_state_bytes') - before).toBe(200 - keptIndexes.length);
    // A launch for the user stays a normal answer.
    expect((await launch(catalogue.tenantId, '3')).status).toBe(200);
  });
});

const describeOnMysql = TEST_DATABASES.includes('mysql') ? describe : describe.skip;

describeOnMysql('a database error that is not an outage [mysql]', () => {
  let api: TestApp;

  beforeAll(async () => {
    api = await TestApp.start('mysql', { BODY_LIMIT_BYTES: String(40 * 1024 * 1024) });
  });
  afterAll(() => api.close());

  it('answers a write over the server packet limit with 500 INTERNAL_ERROR, without Retry-After (a retry cannot succeed)', async () => {
    const [{ packetLimit }] = await dataSourceOf(api).query('SELECT @@max_allowed_packet AS packetLimit');
    const response = await api.post(
      '/engine/nudge/preview/',
      { id: 'huge', template: 'x'.repeat(Number(packetLimit) + 1024), ttl: 60 },
      { 'x-tenant-id': 'packet', user: 'ops@example.com' },
    );
    expect([response.status, response.body.error?.code, response.headers['retry-after']]).toEqual([500, 'INTERNAL_ERROR', undefined]);
  });
});
