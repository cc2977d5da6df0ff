import { eachDatabase, errorBody, TestApp } from './harness';

const OPS_KEY = 'ops-admin-key';
const VIEWER_KEY = 'viewer-key';
const SDK_KEY = 'sdk-key-1';

const ADMIN_SLOTS = 'send one in x-api-key (Authorize: admin-key) or Authorization: Bearer (Authorize: admin-key-bearer)';
const SDK_SLOTS = 'send one in x-api-key (Authorize: sdk-key) or Authorization: Bearer';
const unauthorized = (message: string) => ({ status: 401, body: errorBody('UNAUTHORIZED', message) });

eachDatabase('Keys: a 401 names the header and the console slot expected', (database) => {
  let api: TestApp;

  beforeAll(async () => {
    api = await TestApp.start(database, { ADMIN_API_KEYS: `ops:admin:${OPS_KEY},alice:viewer:${VIEWER_KEY}`, SDK_API_KEYS: SDK_KEY });
  });
  afterAll(() => api.close());

  const events = (headers: Record<string, string>) => api.get('/engine/events', headers);
  const launch = (headers: Record<string, string>) =>
    api.post('/cta/active/state-machines', undefined, { 'auth-userid': '42', api_version: '1', ...headers });

  it('on the admin routes: which header was read, and the slots of the Authorize dialog', async () => {
    expect(await events({})).toMatchObject(
      unauthorized('an admin key is required in x-api-key (Authorize: admin-key) or Authorization: Bearer (Authorize: admin-key-bearer)'),
    );
    // A key without the Bearer scheme is no key at all.
    expect(await events({ authorization: OPS_KEY })).toMatchObject({
      status: 401,
      body: { error: { message: expect.stringMatching(/^an admin key is required/) } },
    });
    expect(await events({ 'x-api-key': 'wrong' })).toMatchObject(
      unauthorized(`the key in x-api-key is not an admin key (one of ADMIN_API_KEYS); ${ADMIN_SLOTS}`),
    );
    expect(await events({ 'x-api-key': SDK_KEY })).toMatchObject(
      unauthorized(`the key in x-api-key is not an admin key (one of ADMIN_API_KEYS); ${ADMIN_SLOTS}`),
    );
    expect(await events({ authorization: 'Bearer wrong' })).toMatchObject(
      unauthorized(`the key in Authorization: Bearer is not an admin key (one of ADMIN_API_KEYS); ${ADMIN_SLOTS}`),
    );
    expect(await events({ authorization: 'Bearer wrong', 'x-api-key': 'wrong too' })).toMatchObject(
      unauthorized(`neither x-api-key nor Authorization: Bearer holds an admin key (one of ADMIN_API_KEYS); ${ADMIN_SLOTS}`),
    );
  });

  it('refuses two different admin keys in one request, naming the conflict instead of choosing one', async () => {
    const conflict = unauthorized(
      "x-api-key and Authorization: Bearer hold two different admin keys ('ops' and 'alice'); send one " +
        '(in the console, fill admin-key or admin-key-bearer, not both)',
    );
    expect(await events({ 'x-api-key': OPS_KEY, authorization: `Bearer ${VIEWER_KEY}` })).toMatchObject(conflict);
    // Not the viewer's FORBIDDEN nor the admin's success on a write either.
    expect(
      await api.post('/engine/events', { events: [] }, { 'x-api-key': OPS_KEY, authorization: `Bearer ${VIEWER_KEY}`, user: 'a' }),
    ).toMatchObject(conflict);
  });

  it('takes the same key in both headers, and a valid key beside a bearer that is no admin key (a gateway token)', async () => {
    expect((await events({ 'x-api-key': OPS_KEY, authorization: `Bearer ${OPS_KEY}` })).status).toBe(200);
    expect((await events({ 'x-api-key': VIEWER_KEY, authorization: 'Bearer gateway-session-token' })).status).toBe(200);
    expect((await events({ 'x-api-key': 'stale', authorization: `Bearer ${VIEWER_KEY}` })).status).toBe(200);
  });

  it('on the SDK routes: the SDK key and its slot', async () => {
    expect(await launch({})).toMatchObject(
      unauthorized('an SDK key is required in x-api-key (Authorize: sdk-key) or Authorization: Bearer'),
    );
    expect(await launch({ 'x-api-key': OPS_KEY })).toMatchObject(
      unauthorized(`the key in x-api-key is not an SDK key (one of SDK_API_KEYS); ${SDK_SLOTS}`),
    );
    expect((await launch({ 'x-api-key': SDK_KEY })).status).toBe(200);
  });

  it("documents each API's own 401 answers", async () => {
    const document = (await api.get('/docs-json')).body;
    const summaries = (path: string, method: string): string[] =>
      Object.values(document.paths[path][method].responses['401'].content['application/json'].examples).map(
        (example: any) => example.summary,
      );
    expect(summaries('/engine/events', 'get')).toEqual(
      expect.arrayContaining([
        'an admin key is required in x-api-key (Authorize: admin-key) or Authorization: Bearer (Authorize: admin-key-bearer)',
        expect.stringMatching(/^x-api-key and Authorization: Bearer hold two different admin keys/),
      ]),
    );
    expect(summaries('/cta/nudge/preview/{id}', 'get')).toEqual(
      expect.arrayContaining(['an SDK key is required in x-api-key (Authorize: sdk-key) or Authorization: Bearer']),
    );
    expect(summaries('/cta/nudge/preview/{id}', 'get').join()).not.toContain('admin');
  });
});
