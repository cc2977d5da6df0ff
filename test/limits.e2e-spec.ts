import { startWithCta } from './admin-client';
import { ctaBody, EXAMPLE_TIME, examples, machine, sdkHeaders } from './fixtures';
import { databaseContents } from './database-contents';
import { eachDatabase, errorBody, TestApp } from './harness';

const ADMIN = { 'x-tenant-id': 'limits', user: 'ops@example.com' };
const DELTA = '/cta/state-machines/snapshot/delta';
const LAUNCH = '/cta/active/state-machines';

const machines = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`key-${i}`, machine()]));

eachDatabase('body limit', (database) => {
  const LIMIT = 4096;
  let api: TestApp;

  beforeAll(async () => {
    api = await TestApp.start(database, { BODY_LIMIT_BYTES: String(LIMIT) });
  });
  afterAll(() => api.close());

  it.each([
    ['POST /engine/ctas', '/engine/ctas', ADMIN],
    ['POST /engine/nudge/preview', '/engine/nudge/preview', ADMIN],
    ['POST /engine/events', '/engine/events', ADMIN],
    ['POST the SDK delta', DELTA, sdkHeaders('limits', '7')],
  ])('answers %s over BODY_LIMIT_BYTES with 413 PAYLOAD_TOO_LARGE, storing nothing', async (_, path, headers) => {
    const before = await databaseContents(api);
    const response = await api.post(path, { padding: 'x'.repeat(LIMIT) }, headers);
    expect(response.status).toBe(413);
    expect(response.body).toEqual(errorBody('PAYLOAD_TOO_LARGE', expect.stringContaining('Request body is too large')));
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(await databaseContents(api)).toEqual(before);
  });

  it('answers the SDK launch over BODY_LIMIT_BYTES as one without a body, storing nothing of it', async () => {
    const before = await databaseContents(api);
    const response = await api.post(LAUNCH, { padding: 'x'.repeat(LIMIT) }, sdkHeaders('limits', '7'));
    expect([response.status, response.body]).toEqual([200, { data: { ctas: [], behaviourTags: [] } }]);
    expect(await databaseContents(api)).toEqual(before);
  });

  it('accepts a body just under the limit', async () => {
    const body = { id: 'under-limit', template: '' };
    body.template = 'é'.repeat((LIMIT - JSON.stringify(body).length - 16) / 2);
    expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThanOrEqual(LIMIT);
    const response = await api.post('/engine/nudge/preview', body, ADMIN);
    expect(response.status).toBe(200);
  });

  it('counts bytes, not characters: multi-byte text over the limit is refused', async () => {
    const body = { id: 'multi-byte', template: '😀'.repeat(LIMIT / 4) };
    expect(JSON.stringify(body).length).toBeLessThan(LIMIT);
    const response = await api.post('/engine/nudge/preview', body, ADMIN);
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});

eachDatabase('rate limits', (database) => {
  const ADMIN_LIMIT = 3;
  const SDK_LIMIT = 2;
  let api: TestApp;

  beforeAll(async () => {
    api = await TestApp.start(database, {
      RATE_LIMIT_ADMIN_PER_MINUTE: String(ADMIN_LIMIT),
      RATE_LIMIT_SDK_PER_MINUTE: String(SDK_LIMIT),
      ADMIN_PREFIX_ALIASES: 'thunder,/',
    });
  });
  afterAll(() => api.close());

  /** A request from a given client address (the harness's requests all come from 127.0.0.1). */
  const from = async (remoteAddress: string, method: 'GET' | 'POST', url: string, headers: Record<string, string> = {}) => {
    const response = await api.app.inject({ method, url, headers, remoteAddress });
    const json = String(response.headers['content-type']).includes('json');
    return { status: response.statusCode, body: json ? response.json() : response.body, headers: response.headers };
  };

  const expectRateLimited = (response: { status: number; body: unknown; headers: Record<string, unknown> }, max: number) => {
    expect(response.status).toBe(429);
    expect(response.body).toEqual(errorBody('RATE_LIMITED', expect.stringContaining(`rate limit of ${max} requests a minute exceeded`)));
    const retryAfter = Number(response.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  };

  it('limits admin requests per client IP, across routes and prefix aliases, the root one included', async () => {
    expect((await from('10.0.0.1', 'GET', '/engine/ctas')).status).toBe(200);
    expect((await from('10.0.0.1', 'GET', '/thunder/filters')).status).toBe(200);
    expect((await from('10.0.0.1', 'GET', '/behaviour-tags')).status).toBe(200);
    expectRateLimited(await from('10.0.0.1', 'GET', '/engine/ctas'), ADMIN_LIMIT);
    expectRateLimited(await from('10.0.0.1', 'GET', '/thunder/events'), ADMIN_LIMIT);
    expectRateLimited(await from('10.0.0.1', 'GET', '/cohort-names?userId=ops'), ADMIN_LIMIT);
    // The root alias counts the admin routes it serves, not the service's own paths.
    expect((await from('10.0.0.1', 'GET', '/health')).status).toBe(200);
    // Another address has its own budget.
    expect((await from('10.0.0.2', 'GET', '/engine/ctas')).status).toBe(200);
  });

  it('refuses an over-limit write before it reaches the database', async () => {
    for (let i = 0; i < ADMIN_LIMIT; i++) {
      await from('10.0.0.3', 'GET', '/engine/ctas');
    }
    const before = await databaseContents(api);
    const response = await api.app.inject({
      method: 'POST',
      url: '/engine/ctas',
      remoteAddress: '10.0.0.3',
      headers: { ...ADMIN, 'content-type': 'application/json' },
      payload: JSON.stringify(ctaBody()),
    });
    expect(response.statusCode).toBe(429);
    expect(await databaseContents(api)).toEqual(before);
  });

  it('limits SDK requests per (tenant, user), whatever the address', async () => {
    expect((await from('10.1.0.1', 'POST', LAUNCH, sdkHeaders('rl-a', '100'))).status).toBe(200);
    expect((await from('10.1.0.2', 'POST', DELTA, sdkHeaders('rl-a', '100'))).status).toBe(200);
    expectRateLimited(await from('10.1.0.3', 'POST', LAUNCH, sdkHeaders('rl-a', '100')), SDK_LIMIT);
    // Another user, and the same user id in another tenant, have their own budgets; so has the address.
    expect((await from('10.1.0.1', 'POST', LAUNCH, sdkHeaders('rl-a', '101'))).status).toBe(200);
    expect((await from('10.1.0.1', 'POST', LAUNCH, sdkHeaders('rl-b', '100'))).status).toBe(200);
    expect((await from('10.1.0.1', 'GET', '/engine/ctas')).status).toBe(200);
  });

  it('counts one user however the id is written', async () => {
    expect((await from('10.1.1.1', 'POST', LAUNCH, sdkHeaders('rl-c', '77'))).status).toBe(200);
    expect((await from('10.1.1.1', 'POST', LAUNCH, sdkHeaders('rl-c', '077'))).status).toBe(200);
    expectRateLimited(await from('10.1.1.1', 'POST', LAUNCH, sdkHeaders('rl-c', '0077')), SDK_LIMIT);
  });

  it('never limits health, readiness, docs or metrics', async () => {
    for (let i = 0; i < ADMIN_LIMIT + 2; i++) {
      for (const path of ['/health', '/health/ready', '/docs-json', '/metrics']) {
        expect((await from('10.2.0.1', 'GET', path)).status).toBe(200);
      }
    }
  });
});

eachDatabase('no rate limits by default', (database) => {
  let api: TestApp;

  beforeAll(async () => {
    api = await TestApp.start(database);
  });
  afterAll(() => api.close());

  it('serves 100 admin and 100 SDK requests from one client without a 429', async () => {
    const statuses = await Promise.all([
      ...Array.from({ length: 100 }, () => api.get('/engine/filters')),
      ...Array.from({ length: 100 }, () => api.post(LAUNCH, undefined, sdkHeaders('no-limit', '5'))),
    ]);
    expect(new Set(statuses.map((response) => response.status))).toEqual(new Set([200]));
  });
});

eachDatabase('list caps inside bodies', (database) => {
  let api: TestApp;
  let ctaId: string;

  beforeAll(async () => {
    ({ api, ctaId } = await startWithCta(database, 'caps'));
  });
  afterAll(() => api.close());

  const snapshot = (fields: Record<string, unknown> = {}) => ({ ctaId, activeStateMachines: { a: machine() }, ...fields });

  /** The request is refused with `code` and a message naming the list, and nothing is stored. */
  async function expectRefused(send: () => Promise<{ status: number; body: unknown }>, code: string, message: string) {
    const before = await databaseContents(api);
    const response = await send();
    expect(response.status).toBe(400);
    expect(response.body).toEqual(errorBody(code, expect.stringContaining(message)));
    expect(await databaseContents(api)).toEqual(before);
  }

  it('accepts a snapshot of exactly 1,000 state machines, and stores the newest MAX_MACHINES_PER_CTA (100) of them', async () => {
    const response = await api.post(DELTA, { ctas: [snapshot({ activeStateMachines: machines(1000) })] }, sdkHeaders('caps', '1'));
    expect(response).toMatchObject({ status: 200, body: { data: true } });
    const launch = await api.post(LAUNCH, undefined, sdkHeaders('caps', '1'));
    // All equally old: the last 100 sent are kept.
    expect(Object.keys(launch.body.data.ctas[0].activeStateMachines)).toEqual(Object.keys(machines(1000)).slice(-100));
  });

  it.each([
    ['delta', DELTA],
    ['launch', LAUNCH],
  ])('refuses 1,001 state machines in one snapshot on the %s', async (_, path) => {
    await expectRefused(
      () => api.post(path, { ctas: [snapshot(), snapshot({ activeStateMachines: machines(1001) })] }, sdkHeaders('caps', '2')),
      'INVALID_REQUEST',
      'invalid request: ctas[1].activeStateMachines holds 1001 state machines, at most 1000 are allowed',
    );
  });

  it('refuses 1,001 CTA snapshots and 1,001 tag snapshots in one body', async () => {
    await expectRefused(
      () => api.post(DELTA, { ctas: Array.from({ length: 1001 }, () => snapshot()) }, sdkHeaders('caps', '3')),
      'INVALID_REQUEST',
      'invalid request: ctas holds 1001 entries, at most 1000 are allowed',
    );
    await expectRefused(
      () => api.post(DELTA, { behaviourTags: Array.from({ length: 1001 }, () => ({ behaviourTagName: 't' })) }, sdkHeaders('caps', '3')),
      'INVALID_REQUEST',
      'invalid request: behaviourTags holds 1001 entries, at most 1000 are allowed',
    );
  });

  it('refuses more than 1,000 userIds on a test CTA, and accepts 1,000', async () => {
    const body = (count: number) => ({
      userIds: Array.from({ length: count }, (_, i) => 1_000_000 + i),
      expiresInMinutes: 60,
      rule: examples.rule(),
    });
    await expectRefused(
      () => api.post('/engine/ctas/test/create', body(1001), { ...ADMIN, 'x-tenant-id': 'caps' }),
      'CTA_CREATION_ERROR',
      'userIds must contain no more than 1000 elements',
    );
    expect((await api.post('/engine/ctas/test/create', body(1000), { ...ADMIN, 'x-tenant-id': 'caps' })).status).toBe(200);
  });

  it('refuses more than 100 tags on a CTA', async () => {
    await expectRefused(
      () => api.post('/engine/ctas', ctaBody({ tags: Array.from({ length: 101 }, (_, i) => `tag-${i}`) }), ADMIN),
      'INVALID_REQUEST',
      'tags must contain no more than 100 elements',
    );
  });

  it('refuses more than 1,000 linked CTAs on a behaviour tag', async () => {
    const body = { ...examples.tag, behaviourTagName: 'too-many-links', linkedCtas: Array.from({ length: 1001 }, (_, i) => i + 1) };
    await expectRefused(
      () => api.post('/engine/behaviour-tags', body, ADMIN),
      'CAMPAIGN_INVALID',
      'linkedCtas must contain no more than 1000',
    );
  });

  it('refuses more than 1,000 events in one body', async () => {
    const events = Array.from({ length: 1001 }, (_, i) => ({ eventName: `event-${i}`, properties: [] }));
    await expectRefused(() => api.post('/engine/events', { events }, ADMIN), 'INVALID_REQUEST', 'events must contain no more than 1000');
  });

  /** `{"a":{"a":…}}` with `depth` objects, as JSON text. */
  const nestedText = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;

  it('accepts bodies nested 64 levels deep and refuses 65, on admin and SDK routes, storing nothing', async () => {
    // The body itself is level 1, the rule level 2, so the extra key holds 62 more.
    const ok = await api.post(
      '/engine/ctas',
      JSON.stringify(ctaBody({ rule: { ...examples.rule(), extra: JSON.parse(nestedText(62)) } })),
      ADMIN,
    );
    expect(ok.status).toBe(200);
    const deepCta = JSON.stringify(ctaBody()).replace(/}$/, `,"extra":${nestedText(64)}}`);
    const machineWithContext = (depth: number) =>
      `{"ctas":[{"ctaId":"${ctaId}","activeStateMachines":{"k":{"currentState":"1","lastTransitionAt":${EXAMPLE_TIME},"createdAt":${EXAMPLE_TIME},"context":${nestedText(depth)}}}}]}`;
    // The body (1), ctas (2), the snapshot (3), the map (4), the machine (5): a context of 59 levels ends at the 64th.
    expect((await api.post(DELTA, machineWithContext(59), sdkHeaders('caps', '9'))).status).toBe(200);
    const message = 'the JSON body nests arrays and objects deeper than 64 levels';
    await expectRefused(() => api.post('/engine/ctas', deepCta, ADMIN), 'INVALID_REQUEST', message);
    await expectRefused(() => api.post(DELTA, machineWithContext(60), sdkHeaders('caps', '9')), 'INVALID_REQUEST', message);
    await expectRefused(() => api.post(LAUNCH, machineWithContext(80_000), sdkHeaders('caps', '9')), 'INVALID_REQUEST', message);
  });

  it('does not count brackets inside strings as nesting', async () => {
    const brackets = '[{'.repeat(100) + '\\"' + '}]'.repeat(100);
    const response = await api.post('/engine/nudge/preview', { id: 'brackets', template: brackets }, ADMIN);
    expect(response.status).toBe(200);
    expect((await api.get('/cta/nudge/preview/brackets', sdkHeaders('limits', '1'))).body.data.template).toBe(brackets);
  });
});
