import type { AddressInfo } from 'node:net';
import { __resetOutOfContextForTests } from 'nestjs-pino/PinoLogger';
import { AdminClient } from './admin-client';
import { dataSourceOf } from './database-contents';
import { EXAMPLE_TIME, machine, runClockAfterExamples, sdkHeaders } from './fixtures';
import { eachDatabase, TestApp } from './harness';
import { sendRequest } from './socket-request';
import { captureLogWrites } from './log-capture';

const LAUNCH = '/cta/active/state-machines/';
const DELTA = '/cta/state-machines/snapshot/delta/';
const MAX_USER_STATE_BYTES = 8192;
/** Set below its 1 MiB default, so that the admin routes' BODY_LIMIT_BYTES (1 MiB) is larger. */
const SDK_BODY_LIMIT_BYTES = 512 * 1024;
const CTAS = 24;
const ENTRIES = 40;

/** resetAt entry `index` of CTA `ctaId`: later indexes are newer. */
const resetAtEntry = (ctaId: string, index: number) => EXAMPLE_TIME - 86_400_000 + index * 1000 + Number(ctaId);
const resetAtOf = (ctaId: string, from: number, count: number) =>
  Array.from({ length: count }, (_, offset) => resetAtEntry(ctaId, from + offset));

/** The SDK bodies over the limit answered as without a body, of the `/metrics` text, on the launch route. */
function oversizedLaunches(metrics: string): number {
  const match = /^cta_sdk_oversized_bodies_total\{route="\/cta\/active\/state-machines\/?"\} (\d+)$/m.exec(metrics);
  return match ? Number(match[1]) : 0;
}

/** The truncation counter of the `/metrics` text, by reason. */
function truncations(metrics: string, reason: string): number {
  const match = new RegExp(`^cta_state_truncations_total\\{reason="${reason}"\\} (\\d+)$`, 'm').exec(metrics);
  return match ? Number(match[1]) : 0;
}

eachDatabase('fair work per request: the caps exact with worst-case bodies, the SDK body limit', (database) => {
  let api: TestApp;
  let tenantCount = 0;
  const tenant = () => new AdminClient(api, `fair-${++tenantCount}`);
  const metrics = async () => String((await api.get('/metrics')).body);
  const storedState = async (tenantId: string, userId: string): Promise<string> => {
    const [row] = await dataSourceOf(api).query('SELECT state FROM sdk_user_states WHERE tenant_id = ? AND user_id = ?', [
      tenantId,
      userId,
    ]);
    return row.state;
  };
  /** The stored document without its launch index, the member the caps do not measure (docs/decisions/0006-user-state-merge.md). */
  const storedDocument = async (tenantId: string, userId: string): Promise<string> => {
    const { launch, ...document } = JSON.parse(await storedState(tenantId, userId)) as { launch: string };
    expect(typeof launch).toBe('string');
    return JSON.stringify(document);
  };

  beforeAll(async () => {
    api = await TestApp.start(database, {
      MAX_USER_STATE_BYTES: String(MAX_USER_STATE_BYTES),
      SDK_BODY_LIMIT_BYTES: String(SDK_BODY_LIMIT_BYTES),
    });
    runClockAfterExamples(api);
    await api.app.listen(0, '127.0.0.1');
  });
  afterAll(() => api.close());

  it(`halves the longest resetAt lists of ${CTAS} CTAs exactly as far as the byte cap needs, in one request`, async () => {
    const catalogue = tenant();
    const ctaIds: string[] = [];
    for (let index = 0; index < CTAS; index++) ctaIds.push(await catalogue.cta());
    const before = truncations(await metrics(), 'user_state_bytes');
    const body = { ctas: ctaIds.map((ctaId) => ({ ctaId, activeStateMachines: {}, resetAt: resetAtOf(ctaId, 0, ENTRIES) })) };
    const response = await api.post(DELTA, body, sdkHeaders(catalogue.tenantId, '1'));
    expect([response.status, response.body]).toEqual([200, { data: true }]);

    const document = await storedDocument(catalogue.tenantId, '1');
    expect(Buffer.byteLength(document)).toBeLessThanOrEqual(MAX_USER_STATE_BYTES);
    const parsed = JSON.parse(document) as { ctas: [string, { resetAt: number[] }][] };
    expect(parsed.ctas.map(([ctaId]) => ctaId)).toEqual(ctaIds);
    // The rule step by step: halve the longest list (the first of equals) until the document fits.
    const bytesWith = (lengths: number[]): number => {
      const copy = structuredClone(parsed);
      copy.ctas.forEach(([ctaId, cta], index) => (cta.resetAt = resetAtOf(ctaId, ENTRIES - lengths[index], lengths[index])));
      return Buffer.byteLength(JSON.stringify(copy));
    };
    const expected = ctaIds.map(() => ENTRIES);
    while (bytesWith(expected) > MAX_USER_STATE_BYTES) expected[expected.indexOf(Math.max(...expected))] >>= 1;
    // Exactly those lengths, each list the newest entries sent, in order.
    expect(parsed.ctas.map(([, cta]) => cta.resetAt.length)).toEqual(expected);
    for (const [ctaId, cta] of parsed.ctas) expect(cta.resetAt).toEqual(resetAtOf(ctaId, ENTRIES - cta.resetAt.length, cta.resetAt.length));
    expect(expected.some((length) => length < ENTRIES / 2)).toBe(true);
    const kept = expected.reduce((sum, length) => sum + length, 0);
    expect(truncations(await metrics(), 'user_state_bytes') - before).toBe(ctaIds.length * ENTRIES - kept);
    // The launch serves the lists as stored.
    const launched = await api.post(LAUNCH, undefined, sdkHeaders(catalogue.tenantId, '1'));
    const served = launched.body.data.ctas.map((cta: { ctaId: string; resetAt: number[] }) => [cta.ctaId, cta.resetAt.length]);
    expect(Object.fromEntries(served)).toEqual(Object.fromEntries(parsed.ctas.map(([ctaId, cta]) => [ctaId, cta.resetAt.length])));
  });

  it('cuts machines past the per-CTA cap, then keeps exactly the newest across CTAs that fit, counting every drop', async () => {
    const catalogue = tenant();
    const ctaIds = [await catalogue.cta(), await catalogue.cta(), await catalogue.cta()];
    const [perCtaBefore, bytesBefore] = [
      truncations(await metrics(), 'machines_per_cta'),
      truncations(await metrics(), 'user_state_bytes'),
    ];
    // 150 machines a CTA, ages interleaved across CTAs; 50 of each are past the per-CTA cap of 100.
    const age = (cta: number, index: number) => EXAMPLE_TIME + index * 3 + cta;
    const body = {
      ctas: ctaIds.map((ctaId, cta) => ({
        ctaId,
        activeStateMachines: Object.fromEntries(
          Array.from({ length: 150 }, (_, index) => [`m-${cta}-${index}`, machine('1', age(cta, index))]),
        ),
      })),
    };
    const response = await api.post(DELTA, body, sdkHeaders(catalogue.tenantId, '2'));
    expect([response.status, response.body]).toEqual([200, { data: true }]);
    const document = await storedDocument(catalogue.tenantId, '2');
    expect(Buffer.byteLength(document)).toBeLessThanOrEqual(MAX_USER_STATE_BYTES);
    const parsed = JSON.parse(document) as { ctas: [string, { activeStateMachines: [string, { lastTransitionAt: number }][] }][] };
    const kept = parsed.ctas.flatMap(([, cta]) => cta.activeStateMachines.map(([, kept]) => kept.lastTransitionAt)).sort((a, b) => b - a);
    // The newest of the 300 left by the per-CTA cap, and not one more: the next older would not fit.
    const candidates = [0, 1, 2].flatMap((cta) => Array.from({ length: 100 }, (_, index) => age(cta, 50 + index))).sort((a, b) => b - a);
    expect(kept).toEqual(candidates.slice(0, kept.length));
    const nextOlder = candidates[kept.length];
    const cta = (nextOlder - EXAMPLE_TIME) % 3;
    const entry = parsed.ctas.find(([ctaId]) => ctaId === ctaIds[cta]);
    const added = [`m-${cta}-${(nextOlder - EXAMPLE_TIME - cta) / 3}`, machine('1', nextOlder)];
    if (entry) entry[1].activeStateMachines.push(added as never);
    else parsed.ctas.push([ctaIds[cta], { activeStateMachines: [added], resetAt: [], actionDoneAt: [] }] as never);
    expect(Buffer.byteLength(JSON.stringify(parsed))).toBeGreaterThan(MAX_USER_STATE_BYTES);
    expect(truncations(await metrics(), 'machines_per_cta') - perCtaBefore).toBe(150);
    expect(truncations(await metrics(), 'user_state_bytes') - bytesBefore).toBe(300 - kept.length);
  });

  it('answers a delta past SDK_BODY_LIMIT_BYTES with 413 and stores nothing; admin routes keep BODY_LIMIT_BYTES', async () => {
    const catalogue = tenant();
    const ctaId = await catalogue.cta();
    const padding = { note: 'x'.repeat(SDK_BODY_LIMIT_BYTES) };
    const response = await api.post(
      DELTA,
      { ctas: [{ ctaId, activeStateMachines: { k: machine('1', EXAMPLE_TIME, { context: padding }) } }] },
      sdkHeaders(catalogue.tenantId, '3'),
    );
    expect([response.status, response.body.error?.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(await dataSourceOf(api).query('SELECT user_id FROM sdk_user_states WHERE tenant_id = ?', [catalogue.tenantId])).toEqual([]);
    const justUnder = {
      ctas: [
        { ctaId, activeStateMachines: { k: machine('1', EXAMPLE_TIME, { context: { note: 'x'.repeat(SDK_BODY_LIMIT_BYTES - 200) } }) } },
      ],
    };
    expect((await api.post(DELTA, justUnder, sdkHeaders(catalogue.tenantId, '3'))).status).toBe(200);
    const preview = await api.post(
      '/engine/nudge/preview/',
      { id: 'large', template: 'x'.repeat(SDK_BODY_LIMIT_BYTES + 1024), ttl: 60 },
      catalogue.headers(),
    );
    expect(preview.status).toBe(200);
  });

  it('never locks a device out: launches whose body stays past the limit are answered from the stored state, new CTAs included', async () => {
    const catalogue = tenant();
    const port = (api.app.getHttpServer().address() as AddressInfo).port;
    const headers = sdkHeaders(catalogue.tenantId, '4');
    const first = await catalogue.cta();
    // What the device stored while its deltas still went through.
    const stored = { ctas: [{ ctaId: first, activeStateMachines: { stored: machine('1', EXAMPLE_TIME) } }] };
    expect((await api.post(DELTA, stored, headers)).status).toBe(200);
    const storedText = await storedState(catalogue.tenantId, '4');
    // Then its pending snapshot outgrew the SDK body limit: its delta is refused, and it sends the
    // same snapshot as the body of every launch.
    const pending = JSON.stringify({
      ctas: [
        {
          ctaId: first,
          activeStateMachines: { pending: machine('2', EXAMPLE_TIME + 1000, { context: { note: 'x'.repeat(SDK_BODY_LIMIT_BYTES) } }) },
        },
      ],
    });
    const refused = await sendRequest(port, { path: DELTA, headers, body: pending });
    expect([refused.status, JSON.parse(refused.body).error?.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    const before = oversizedLaunches(await metrics());
    const ctaIds = [first];
    for (const chunked of [false, true]) {
      ctaIds.push(await catalogue.cta());
      const launched = await sendRequest(port, { path: LAUNCH, headers, body: pending, chunked });
      expect(launched.status).toBe(200);
      const served = JSON.parse(launched.body).data.ctas as { ctaId: string; activeStateMachines: Record<string, unknown> }[];
      expect(served.map((cta) => cta.ctaId).sort()).toEqual([...ctaIds].sort());
      expect(Object.keys(served.find((cta) => cta.ctaId === first)!.activeStateMachines)).toEqual(['stored']);
    }
    expect(oversizedLaunches(await metrics()) - before).toBe(2);
    // Nothing of the oversized bodies was kept.
    expect(await storedState(catalogue.tenantId, '4')).toBe(storedText);
    // A launch body within the limit is merged as before.
    const within = { ctas: [{ ctaId: first, activeStateMachines: { within: machine('2', EXAMPLE_TIME + 2000) } }] };
    const merged = await sendRequest(port, { path: LAUNCH, headers, body: JSON.stringify(within), chunked: true });
    expect(
      Object.keys(JSON.parse(merged.body).data.ctas.find((cta: { ctaId: string }) => cta.ctaId === first).activeStateMachines).sort(),
    ).toEqual(['stored', 'within']);
    expect(oversizedLaunches(await metrics()) - before).toBe(2);
  });
});

describe('bounded logs of one app user [sqlite]', () => {
  let api: TestApp;
  let written: string[];
  const capture = (chunk: unknown): void => void written.push(String(chunk));
  /** This suite's lines (the log is one per process: lines of earlier suites' users may come due meanwhile). */
  const userLines = (): string[] =>
    written
      .join('')
      .split('\n')
      .filter((line) => line.includes('"context":"SdkUserLimits"') && line.includes('"tenantId":"fair-logs"'));

  beforeAll(async () => {
    written = [];
    captureLogWrites(capture);
    __resetOutOfContextForTests();
    api = await TestApp.start('sqlite', {
      LOG_LEVEL: 'warn',
      MAX_USER_STATE_BYTES: String(MAX_USER_STATE_BYTES),
      SDK_BODY_LIMIT_BYTES: String(SDK_BODY_LIMIT_BYTES),
    });
    runClockAfterExamples(api);
  });
  afterAll(async () => {
    await api.close();
    jest.restoreAllMocks();
  });

  it('writes one line under 1 KB per user per 5 s, naming tenant, user and counts, with the number of requests it covers', async () => {
    const catalogue = new AdminClient(api, 'fair-logs');
    const ctaIds: string[] = [];
    for (let index = 0; index < CTAS; index++) ctaIds.push(await catalogue.cta());
    const body = (from: number) => ({
      ctas: ctaIds.map((ctaId) => ({ ctaId, activeStateMachines: {}, resetAt: resetAtOf(ctaId, from, ENTRIES) })),
    });
    written = [];
    for (let request = 0; request < 4; request++) {
      expect((await api.post(DELTA, body(request), sdkHeaders(catalogue.tenantId, '42'))).status).toBe(200);
    }
    const tooLarge = await api.post(DELTA, { padding: 'x'.repeat(SDK_BODY_LIMIT_BYTES) }, sdkHeaders(catalogue.tenantId, '43'));
    expect(tooLarge.status).toBe(413);
    const ignored = await api.post(LAUNCH, { padding: 'x'.repeat(SDK_BODY_LIMIT_BYTES) }, sdkHeaders(catalogue.tenantId, '44'));
    expect(ignored.status).toBe(200);
    // At once: the first truncation of user 42, the refusal of user 43, the ignored launch body of user 44.
    expect(userLines().map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({
        level: 40,
        tenantId: 'fair-logs',
        userId: '42',
        requests: 1,
        truncated: expect.objectContaining({ requests: 1 }),
      }),
      expect.objectContaining({ level: 40, tenantId: 'fair-logs', userId: '43', requests: 1, refused: { 413: 1 } }),
      expect.objectContaining({ level: 40, tenantId: 'fair-logs', userId: '44', requests: 1, bodiesIgnored: 1 }),
    ]);
    const [first] = userLines();
    expect(Buffer.byteLength(first)).toBeLessThanOrEqual(1024);
    expect(JSON.parse(first).truncated.ctaIds.length).toBeLessThanOrEqual(5);
    expect(JSON.parse(first).truncated.userStateBytes).toBeGreaterThan(0);
    // The other three requests of user 42 come in one line when the period ends.
    await new Promise((resolve) => setTimeout(resolve, 5200));
    const lines = userLines();
    expect(lines).toHaveLength(4);
    expect(JSON.parse(lines[3])).toMatchObject({ userId: '42', requests: 3, truncated: { requests: 3 } });
    expect(Buffer.byteLength(lines[3])).toBeLessThanOrEqual(1024);
  }, 30_000);
});
