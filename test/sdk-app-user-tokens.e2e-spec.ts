import { AdminClient } from './admin-client';
import { machine, sdkHeaders } from './fixtures';
import {
  hs256Token,
  KeySetServer,
  keySetToken,
  SigningKey,
  signingKey,
  TOKEN_AUDIENCE,
  TOKEN_ISSUER,
  TOKEN_SECRET,
  unsignedToken,
} from './app-user-tokens';
import { eachDatabase, errorBody, TestApp } from './harness';

const LAUNCH = '/cta/active/state-machines/';
const DELTA = '/cta/state-machines/snapshot/delta/';
const SDK_KEY = 'sdk-key-1';
const MINUTE = 60_000;

const TOKEN_REQUIRED = errorBody('UNAUTHORIZED', "the app user's token is required in Authorization: Bearer (Authorize: appUserToken)");
const ANOTHER_USERS_TOKEN = errorBody('FORBIDDEN', "the app-user token is another user's: its user is not the auth-userid");
const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

eachDatabase('SDK app-user tokens (HS256)', (database) => {
  let api: TestApp;
  let catalogue: AdminClient;
  let ctaId: string;
  const now = () => api.clock.now();
  const launch = (userId: string, headers: Record<string, string>, body?: unknown) =>
    api.post(LAUNCH, body, { ...sdkHeaders(catalogue.tenantId, userId), ...headers });
  const delta = (userId: string, headers: Record<string, string>, body: unknown) =>
    api.post(DELTA, body, { ...sdkHeaders(catalogue.tenantId, userId), ...headers });
  const deltaFor = (machineKey: string) => ({ ctas: [{ ctaId, activeStateMachines: { [machineKey]: machine('1', now()) } }] });
  const machinesOf = (response: { body: any }) => Object.keys(response.body.data.ctas[0].activeStateMachines);

  beforeAll(async () => {
    api = await TestApp.start(database, { SDK_JWT_SECRET: TOKEN_SECRET, SDK_JWT_ISSUER: TOKEN_ISSUER, SDK_JWT_AUDIENCE: TOKEN_AUDIENCE });
    catalogue = new AdminClient(api, 'tokens');
    ctaId = await catalogue.cta();
  });
  afterAll(() => api.close());

  it("serves the app user's CTAs and stores their delta with their token", async () => {
    const token = await hs256Token('42', now());
    expect(await delta('42', bearer(token), deltaFor('store-1'))).toMatchObject({ status: 200, body: { data: true } });
    const launched = await launch('42', bearer(token));
    expect(launched.status).toBe(200);
    expect(launched.body.data.ctas.map((cta: { ctaId: string }) => cta.ctaId)).toEqual([ctaId]);
    expect(machinesOf(launched)).toEqual(['store-1']);
  });

  it('reads both user ids as signed 64-bit integers: leading zeros and a JSON number match', async () => {
    expect((await launch('42', bearer(await hs256Token('042', now())))).status).toBe(200);
    expect((await launch('0042', bearer(await hs256Token('42', now())))).status).toBe(200);
    expect((await launch('-9223372036854775808', bearer(await hs256Token('-9223372036854775808', now())))).status).toBe(200);
    const numeric = await hs256Token('ignored', now(), { payload: { sub: 42 as unknown as string } });
    expect((await launch('42', bearer(numeric))).status).toBe(200);
  });

  it("refuses another user's token with 403 FORBIDDEN on both routes, storing nothing", async () => {
    const token = await hs256Token('42', now());
    expect(await launch('43', bearer(token))).toMatchObject({ status: 403, body: ANOTHER_USERS_TOKEN });
    expect(await delta('43', bearer(token), deltaFor('forged'))).toMatchObject({ status: 403, body: ANOTHER_USERS_TOKEN });
    // A user id beyond 64 bits, or one that is not a number, is nobody's.
    expect(await launch('42', bearer(await hs256Token('9223372036854775850', now())))).toMatchObject({
      status: 403,
      body: ANOTHER_USERS_TOKEN,
    });
    expect(await launch('42', bearer(await hs256Token('user-42', now())))).toMatchObject({ status: 403, body: ANOTHER_USERS_TOKEN });

    const own = await launch('43', bearer(await hs256Token('43', now())));
    expect(machinesOf(own)).toEqual([]);
  });

  it('refuses a missing token or one without the Bearer scheme with 401 UNAUTHORIZED', async () => {
    const token = await hs256Token('42', now());
    const refused: Record<string, string>[] = [
      {},
      { authorization: token },
      { authorization: `Basic ${token}` },
      { authorization: 'Bearer ' },
      { 'x-api-key': token },
    ];
    for (const headers of refused) {
      expect({ headers, response: await launch('42', headers) }).toMatchObject({
        headers,
        response: { status: 401, body: TOKEN_REQUIRED },
      });
      expect({ headers, response: await delta('42', headers, {}) }).toMatchObject({
        headers,
        response: { status: 401, body: TOKEN_REQUIRED },
      });
    }
  });

  it('refuses badly signed, tampered, unsigned (alg none) and malformed tokens with 401', async () => {
    const token = await hs256Token('42', now());
    const [header, , signature] = token.split('.');
    const tampered = `${header}.${Buffer.from(JSON.stringify({ sub: '43', iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE })).toString('base64url')}.${signature}`;
    const refusals: [string, string, string][] = [
      [
        'another secret',
        await hs256Token('42', now(), {}, 'a-different-secret-of-at-least-32-bytes'),
        'the app-user token has a signature that does not verify',
      ],
      ['a tampered payload', tampered, 'the app-user token has a signature that does not verify'],
      ['alg none', unsignedToken('42', now()), 'the app-user token is signed with an algorithm that is not accepted'],
      [
        'an RS256 token',
        await keySetToken(await signingKey('k1', 'RS256'), '42', now()),
        'the app-user token is signed with an algorithm that is not accepted',
      ],
      ['not a JWT', 'not-a-token', 'the app-user token is malformed'],
    ];
    for (const [what, refused, message] of refusals) {
      expect({ what, response: await launch('42', bearer(refused)) }).toMatchObject({
        what,
        response: { status: 401, body: errorBody('UNAUTHORIZED', message) },
      });
    }
    expect(await delta('42', bearer(unsignedToken('43', now())), deltaFor('unsigned'))).toMatchObject({ status: 401 });
  });

  it('refuses a token of another issuer or audience, or without the user claim, with 401', async () => {
    const refusals: [string, Record<string, unknown>, string][] = [
      ['another issuer', { iss: 'https://evil.example.com' }, 'the app-user token is refused: unexpected "iss" claim value'],
      ['another audience', { aud: 'another-app' }, 'the app-user token is refused: unexpected "aud" claim value'],
      ['no user claim', { sub: undefined }, "the app-user token has no 'sub' claim naming the app user"],
    ];
    for (const [what, payload, message] of refusals) {
      const token = await hs256Token('42', now(), { payload });
      expect({ what, response: await launch('42', bearer(token)) }).toMatchObject({
        what,
        response: { status: 401, body: errorBody('UNAUTHORIZED', message) },
      });
    }
  });

  it('accepts a token expired within the 30 s clock tolerance, refuses one expired before', async () => {
    expect((await launch('42', bearer(await hs256Token('42', now(), { expiresIn: -20 })))).status).toBe(200);
    const expired = await hs256Token('42', now(), { expiresIn: -40 });
    expect(await launch('42', bearer(expired))).toMatchObject({
      status: 401,
      body: errorBody('UNAUTHORIZED', 'the app-user token has expired'),
    });
  });

  it('stops accepting a verified (cached) token once it expires', async () => {
    const token = await hs256Token('42', now(), { expiresIn: 60 });
    expect((await launch('42', bearer(token))).status).toBe(200);
    expect((await launch('42', bearer(token))).status).toBe(200);
    api.clock.advance(2 * MINUTE);
    expect(await launch('42', bearer(token))).toMatchObject({
      status: 401,
      body: errorBody('UNAUTHORIZED', 'the app-user token has expired'),
    });
  });

  it('checks the token before auth-userid: a non-numeric auth-userid with a valid token is 400', async () => {
    const token = await hs256Token('42', now());
    expect(await launch('user-42', bearer(token))).toMatchObject({
      status: 400,
      body: errorBody('INVALID_REQUEST', "header 'auth-userid' must be a decimal integer"),
    });
    expect(await launch('user-42', {})).toMatchObject({ status: 401, body: TOKEN_REQUIRED });
  });

  it('leaves the admin routes and the nudge-preview read without tokens', async () => {
    const admin = { 'x-tenant-id': catalogue.tenantId, user: 'ops@example.com' };
    expect((await api.get('/engine/ctas', admin)).status).toBe(200);
    expect((await api.post('/engine/nudge/preview', { id: 'banner', template: '<b>hi</b>' }, admin)).status).toBe(200);
    const preview = await api.get('/cta/nudge/preview/banner', { 'x-tenant-id': catalogue.tenantId });
    expect(preview).toMatchObject({ status: 200, body: { data: { id: 'banner', template: '<b>hi</b>' } } });
  });

  it('documents the appUserToken scheme with the SDK key on the state-machine routes, 401 and 403', async () => {
    const document = (await api.get('/docs-json')).body;
    expect(document.components.securitySchemes.appUserToken).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    for (const path of ['/cta/active/state-machines', '/cta/state-machines/snapshot/delta']) {
      expect(document.paths[path].post.security).toEqual([{ appUserToken: [], 'sdk-key': [] }]);
      expect(Object.keys(document.paths[path].post.responses)).toEqual(expect.arrayContaining(['401', '403']));
    }
    expect(document.paths['/cta/nudge/preview/{id}'].get.security).toEqual([{ 'sdk-key': [] }]);
  });
});

eachDatabase('SDK app-user tokens with SDK keys', (database) => {
  let api: TestApp;
  const headers = (extra: Record<string, string>) => ({ ...sdkHeaders('keyed', '42'), ...extra });

  beforeAll(async () => {
    api = await TestApp.start(database, { SDK_JWT_SECRET: TOKEN_SECRET, SDK_API_KEYS: SDK_KEY });
  });
  afterAll(() => api.close());

  it('needs the key in x-api-key and the token as bearer: both must pass', async () => {
    const token = await hs256Token('42', api.clock.now());
    expect(await api.post(LAUNCH, undefined, headers({ ...bearer(token), 'x-api-key': SDK_KEY }))).toMatchObject({
      status: 200,
      body: { data: { ctas: [], behaviourTags: [] } },
    });
    const keyRefused = errorBody('UNAUTHORIZED', expect.stringContaining('an SDK key (one of SDK_API_KEYS)'));
    expect(await api.post(LAUNCH, undefined, headers(bearer(token)))).toMatchObject({ status: 401, body: keyRefused });
    expect(await api.post(LAUNCH, undefined, headers({ ...bearer(token), 'x-api-key': 'wrong' }))).toMatchObject({
      status: 401,
      body: keyRefused,
    });
    expect(await api.post(LAUNCH, undefined, headers({ 'x-api-key': SDK_KEY }))).toMatchObject({ status: 401, body: TOKEN_REQUIRED });
    // The key as the bearer is no app-user token.
    expect(await api.post(LAUNCH, undefined, headers(bearer(SDK_KEY)))).toMatchObject({ status: 401 });
    const forged = await hs256Token('42', api.clock.now(), {}, 'a-different-secret-of-at-least-32-bytes');
    expect(await api.post(DELTA, {}, headers({ ...bearer(forged), 'x-api-key': SDK_KEY }))).toMatchObject({ status: 401 });
  });

  it('keeps the nudge-preview read on the key alone', async () => {
    expect((await api.get('/cta/nudge/preview/none', { 'x-api-key': SDK_KEY })).status).toBe(200);
    expect((await api.get('/cta/nudge/preview/none', { authorization: `Bearer ${SDK_KEY}` })).status).toBe(200);
    expect((await api.get('/cta/nudge/preview/none')).status).toBe(401);
  });
});

describe('SDK app-user tokens with a custom user claim', () => {
  let api: TestApp;

  beforeAll(async () => {
    api = await TestApp.start('sqlite', { SDK_JWT_SECRET: TOKEN_SECRET, SDK_JWT_USER_CLAIM: 'uid' });
  });
  afterAll(() => api.close());

  it('compares that claim, whatever sub says', async () => {
    const token = await hs256Token('7', api.clock.now(), { payload: { uid: '42' } });
    expect((await api.post(LAUNCH, undefined, { ...sdkHeaders('claims', '42'), ...bearer(token) })).status).toBe(200);
    expect(await api.post(LAUNCH, undefined, { ...sdkHeaders('claims', '7'), ...bearer(token) })).toMatchObject({ status: 403 });
  });
});

/** The key set is fetched over HTTP whatever the database: SQLite only. */
describe('SDK app-user tokens from a JWKS URL (RS256, ES256)', () => {
  let api: TestApp;
  let keySet: KeySetServer;
  let first: SigningKey;
  let second: SigningKey;
  let unknown: SigningKey;
  const launchWith = async (key: SigningKey, userId = '42') =>
    api.post(LAUNCH, undefined, { ...sdkHeaders('jwks', userId), ...bearer(await keySetToken(key, userId, api.clock.now())) });
  /** jose times its key-set refetches with Date: move the wall clock (the app's clock follows it). */
  const passMinutes = (minutes: number) => jest.setSystemTime(Date.now() + minutes * MINUTE + 1);

  beforeAll(async () => {
    [first, second, unknown] = await Promise.all([
      signingKey('2026-01', 'RS256'),
      signingKey('2026-02', 'ES256'),
      signingKey('never-published', 'RS256'),
    ]);
    keySet = await KeySetServer.start();
    keySet.serve(first);
    api = await TestApp.start('sqlite', { SDK_JWT_JWKS_URL: keySet.url, SDK_JWT_ISSUER: TOKEN_ISSUER, SDK_JWT_AUDIENCE: TOKEN_AUDIENCE });
    jest.useFakeTimers({
      doNotFake: [
        'hrtime',
        'nextTick',
        'performance',
        'queueMicrotask',
        'setImmediate',
        'clearImmediate',
        'setInterval',
        'clearInterval',
        'setTimeout',
        'clearTimeout',
      ],
    });
  });
  afterAll(async () => {
    jest.useRealTimers();
    await api.close();
    await keySet.close();
  });

  it('picks up a rotated key without a restart, fetching the key set at most once a minute for unknown kids', async () => {
    expect((await launchWith(first)).status).toBe(200);
    expect(keySet.requests).toBe(1);

    // The issuer starts signing with a new key: until a minute has passed since the last fetch, it is unknown.
    keySet.serve(first, second);
    for (let attempt = 0; attempt < 5; attempt++) {
      expect(await launchWith(second)).toMatchObject({
        status: 401,
        body: errorBody('UNAUTHORIZED', 'the app-user token names a key (kid) that the key set does not hold'),
      });
      expect(await launchWith(unknown)).toMatchObject({ status: 401 });
    }
    expect(keySet.requests).toBe(1);

    passMinutes(1);
    expect((await launchWith(second)).status).toBe(200);
    expect((await launchWith(first)).status).toBe(200);
    expect(keySet.requests).toBe(2);

    // A kid nobody publishes: one fetch a minute at most, however many tokens name it.
    passMinutes(1);
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await launchWith(unknown)).status).toBe(401);
    }
    expect(keySet.requests).toBe(3);
    expect((await launchWith(second, '43')).status).toBe(200);
    expect(keySet.requests).toBe(3);
  });

  it("refuses HS256 tokens and another user's token", async () => {
    expect(
      await api.post(LAUNCH, undefined, { ...sdkHeaders('jwks', '42'), ...bearer(await hs256Token('42', api.clock.now())) }),
    ).toMatchObject({
      status: 401,
      body: errorBody('UNAUTHORIZED', 'the app-user token is signed with an algorithm that is not accepted'),
    });
    const token = await keySetToken(first, '42', api.clock.now());
    expect(await api.post(LAUNCH, undefined, { ...sdkHeaders('jwks', '43'), ...bearer(token) })).toMatchObject({
      status: 403,
      body: ANOTHER_USERS_TOKEN,
    });
  });

  it('answers 503 with Retry-After, not 401, while the key set cannot be fetched; cached tokens still pass', async () => {
    const launchAs = (userId: string, token: string) => api.post(LAUNCH, undefined, { ...sdkHeaders('jwks', userId), ...bearer(token) });
    // Nine minutes after the last fetch, a token is verified with the key set still held, and cached.
    passMinutes(9);
    const cached = await keySetToken(first, '44', api.clock.now());
    expect((await launchAs('44', cached)).status).toBe(200);
    // Past ten minutes jose re-reads the key set before using it again: the server is down by then.
    keySet.failWith = 500;
    passMinutes(2);
    const fresh = await keySetToken(first, '42', api.clock.now());
    const response = await launchAs('42', fresh);
    expect(response).toMatchObject({
      status: 503,
      body: errorBody('SERVICE_UNAVAILABLE', 'the keys to verify app-user tokens are unavailable, retry later'),
    });
    expect(response.headers['retry-after']).toBe('5');
    expect((await launchAs('44', cached)).status).toBe(200);
    keySet.failWith = null;
    expect((await launchAs('42', fresh)).status).toBe(200);
  });
});
