import { AdminClient } from './admin-client';
import { examples, machine, runClockAfterExamples, sdkHeaders } from './fixtures';
import { setTimeout as sleep } from 'node:timers/promises';
import { dataSourceOf } from './database-contents';
import { errorBody, TEST_DATABASES, TestApp } from './harness';
import { TcpProxy } from './tcp-proxy';

const TENANT = 'outage';
const ADMIN = { 'x-tenant-id': TENANT, user: 'ops@example.com' };
const DELTA = '/cta/state-machines/snapshot/delta';
const LAUNCH = '/cta/active/state-machines';

/** The promise: healed within 5 s of the database coming back. */
const RECOVERY_MS = 5000;

/**
 * The two ways a database goes away. A cut (server down, connections reset)
 * fails at once. A stall (network partition: nothing answers, nothing fails)
 * lasts longer than the pool's timeouts (connect 5 s, query 10 s), so that they
 * fire: no request may wait past them.
 */
const OUTAGES = [
  { kind: 'cut', durationMs: 3000, maxRequestMs: 2000, start: (proxy: TcpProxy) => proxy.cut() },
  { kind: 'stall', durationMs: 13_000, maxRequestMs: 12_000, start: async (proxy: TcpProxy) => proxy.stall() },
] as const;

interface Outcome {
  kind: 'create' | 'delta';
  /** The CTA name, or `<user>/<machine key>`. */
  key: string;
  status: number;
  body: any;
  retryAfter: unknown;
  startedAt: number;
  ms: number;
}

/**
 * Only MariaDB: SQLite is a file inside the process, there is no connection
 * to cut. The app reaches MariaDB through a TCP proxy the test cuts while a
 * load of CTA creates and snapshot merges runs.
 */
const describeOnMysql = TEST_DATABASES.includes('mysql') ? describe : describe.skip;

describeOnMysql('database outage [mysql] (not on SQLite: an embedded file has no connection to cut)', () => {
  let proxy: TcpProxy;
  let api: TestApp;
  let ctaId: string;

  beforeAll(async () => {
    const server = new URL(process.env.TEST_MYSQL_URL_REACHABLE as string);
    proxy = await TcpProxy.start(server.hostname, Number(server.port || 3306));
    // Each user gets a new machine per merge, all with the same times: the per-user caps would drop some of
    // them by design, and this suite proves an outage loses nothing, so the caps stay out of its way.
    const uncapped = { MAX_MACHINES_PER_CTA: '1000000', MAX_USER_STATE_BYTES: '67108864' };
    api = await TestApp.start('mysql', uncapped, (url) => {
      const proxied = new URL(url);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(proxy.port);
      return proxied.toString();
    });
    runClockAfterExamples(api);
    ctaId = await new AdminClient(api, TENANT).cta();
  });
  afterAll(async () => {
    await proxy.restore();
    await api.close();
    await proxy.cut();
  });

  it.each(OUTAGES)('answers 503 with Retry-After during a $kind, heals by itself, and loses no acknowledged write', async (outage) => {
    const outcomes: Outcome[] = [];
    let running = true;
    let sequence = 0;

    const record = async (kind: Outcome['kind'], key: string, send: () => Promise<{ status: number; body: any; headers: any }>) => {
      const startedAt = Date.now();
      const response = await send();
      outcomes.push({
        kind,
        key,
        status: response.status,
        body: response.body,
        retryAfter: response.headers['retry-after'],
        startedAt,
        ms: Date.now() - startedAt,
      });
    };
    const creator = async () => {
      while (running) {
        const name = `${outage.kind}-cta-${++sequence}`;
        await record('create', name, () =>
          api.post(
            '/engine/ctas',
            { name, description: 'load', tags: ['load'], team: 'ops', startTime: null, endTime: null, rule: examples.rule() },
            ADMIN,
          ),
        );
        await sleep(10);
      }
    };
    const merger = (userId: string) => async () => {
      while (running) {
        const key = `${outage.kind}-machine-${++sequence}`;
        await record('delta', `${userId}/${key}`, () =>
          api.post(DELTA, { ctas: [{ ctaId, activeStateMachines: { [key]: machine() } }] }, sdkHeaders(TENANT, userId)),
        );
        await sleep(10);
      }
    };
    const load = [creator, creator, creator, merger('501'), merger('502'), merger('503')].map((worker) => worker());

    await sleep(1000);
    const cutAt = Date.now();
    await outage.start(proxy);
    await sleep(500);
    const liveDuringOutage = await api.get('/health');
    const readyDuringOutage = await api.get('/health/ready');
    await sleep(Math.max(0, cutAt + outage.durationMs - Date.now()));
    await proxy.restore();
    const restoredAt = Date.now();

    // Readiness comes back by itself.
    let readyAgainAfterMs = Number.POSITIVE_INFINITY;
    while (Date.now() - restoredAt < RECOVERY_MS + 2000) {
      if ((await api.get('/health/ready')).status === 200) {
        readyAgainAfterMs = Date.now() - restoredAt;
        break;
      }
      await sleep(100);
    }
    await sleep(Math.max(0, restoredAt + RECOVERY_MS + 2000 - Date.now()));
    running = false;
    await Promise.all(load);

    expect(liveDuringOutage.status).toBe(200);
    expect(readyDuringOutage.status).toBe(503);
    expect(readyDuringOutage.body).toEqual(errorBody('SERVICE_UNAVAILABLE', 'the database is unavailable, retry later'));
    expect(readyAgainAfterMs).toBeLessThanOrEqual(RECOVERY_MS);

    // Only successes and clean 503s, none slow.
    const unexpected = outcomes.filter((outcome) => outcome.status !== 200 && outcome.status !== 503);
    expect(unexpected).toEqual([]);
    for (const failure of outcomes.filter((outcome) => outcome.status === 503)) {
      expect(failure.body).toEqual(errorBody('SERVICE_UNAVAILABLE', 'the database is unavailable, retry later'));
      expect(failure.retryAfter).toBe('5');
    }
    expect(Math.max(...outcomes.map((outcome) => outcome.ms))).toBeLessThan(outage.maxRequestMs);

    // The outage was felt by both kinds of write, and both healed within RECOVERY_MS.
    for (const kind of ['create', 'delta'] as const) {
      const ofKind = outcomes.filter((outcome) => outcome.kind === kind);
      expect(ofKind.filter((outcome) => outcome.startedAt < cutAt && outcome.status === 200).length).toBeGreaterThan(0);
      const duringOutage = ofKind.filter((outcome) => outcome.startedAt < restoredAt && outcome.startedAt + outcome.ms > cutAt + 200);
      expect(duringOutage.filter((outcome) => outcome.status === 503).length).toBeGreaterThan(0);
      const afterRecovery = ofKind.filter((outcome) => outcome.startedAt >= restoredAt + RECOVERY_MS);
      expect(afterRecovery.length).toBeGreaterThan(0);
      expect(afterRecovery.filter((outcome) => outcome.status !== 200)).toEqual([]);
    }

    // Every acknowledged write is in the database.
    const created = outcomes.filter((outcome) => outcome.kind === 'create' && outcome.status === 200);
    const rows: { id: number; name: string }[] = await dataSourceOf(api).query('SELECT id, name FROM ctas WHERE tenant_id = ?', [TENANT]);
    const storedNames = new Map(rows.map((row) => [row.name, Number(row.id)]));
    expect(created.filter((outcome) => storedNames.get(outcome.key) !== outcome.body.data)).toEqual([]);

    for (const userId of ['501', '502', '503']) {
      const merged = outcomes.filter(
        (outcome) => outcome.kind === 'delta' && outcome.status === 200 && outcome.key.startsWith(`${userId}/`),
      );
      expect(merged.length).toBeGreaterThan(0);
      const launch = await api.post(LAUNCH, undefined, sdkHeaders(TENANT, userId));
      expect(launch.status).toBe(200);
      const storedKeys = new Set(
        Object.keys(launch.body.data.ctas.find((cta: { ctaId: string }) => cta.ctaId === ctaId).activeStateMachines),
      );
      expect(merged.map((outcome) => outcome.key.split('/')[1]).filter((key) => !storedKeys.has(key))).toEqual([]);
    }
  });
});
