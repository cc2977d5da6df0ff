import { Logger } from 'nestjs-pino';
import { OPEN_ADMIN_API_WARNING } from '../src/http-app';
import { eachDatabase, errorBody, TestApp } from './harness';

const ADMIN_KEY = 'admin-key-1';
const SECOND_ADMIN_KEY = 'admin-key-2';
const SDK_KEY = 'sdk-key-1';

// Each refusal names the header and the console slot (test/console-keys.e2e-spec.ts asserts the messages).
const UNAUTHORIZED = errorBody('UNAUTHORIZED');

interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
}

/** Every admin route (under a prefix), with a body where it takes one. */
const adminRoutes = (prefix: string): Route[] => [
  { method: 'POST', path: `/${prefix}/ctas`, body: {} },
  { method: 'GET', path: `/${prefix}/ctas` },
  { method: 'GET', path: `/${prefix}/ctas/1` },
  { method: 'PUT', path: `/${prefix}/ctas/1`, body: {} },
  { method: 'PUT', path: `/${prefix}/ctas/1/live` },
  { method: 'GET', path: `/${prefix}/filters` },
  { method: 'POST', path: `/${prefix}/ctas/test/create`, body: {} },
  { method: 'DELETE', path: `/${prefix}/ctas/test/1` },
  { method: 'POST', path: `/${prefix}/behaviour-tags`, body: {} },
  { method: 'PUT', path: `/${prefix}/behaviour-tags/some-tag`, body: {} },
  { method: 'GET', path: `/${prefix}/behaviour-tags` },
  { method: 'POST', path: `/${prefix}/events`, body: {} },
  { method: 'GET', path: `/${prefix}/events` },
  { method: 'GET', path: `/${prefix}/events/list/names` },
  { method: 'GET', path: `/${prefix}/events/some-event` },
  { method: 'PUT', path: `/${prefix}/events/some-event`, body: {} },
  { method: 'DELETE', path: `/${prefix}/events/some-event` },
  { method: 'POST', path: `/${prefix}/nudge/preview`, body: {} },
];

const SDK_ROUTES: Route[] = [
  { method: 'POST', path: '/cta/active/state-machines', body: {} },
  { method: 'POST', path: '/cta/state-machines/snapshot/delta', body: {} },
  { method: 'GET', path: '/cta/nudge/preview/some-preview' },
];

/** Under the admin prefix, an alias, and the root (the alias `/`, which the newest panel builds write to). */
const ADMIN_ROUTES = [
  ...adminRoutes('engine'),
  ...adminRoutes('thunder'),
  ...adminRoutes('engine').map((route) => ({ ...route, path: route.path.replace(/^\/engine/, '') })),
];
const label = (route: Route): string => `${route.method} ${route.path}`;
const ADMIN_HEADERS = { user: 'ops@example.com' };
const SDK_HEADERS = { 'auth-userid': '42', api_version: '1' };

eachDatabase('access control', (database) => {
  let api: TestApp;
  let warnings: jest.SpyInstance;

  beforeAll(async () => {
    warnings = jest.spyOn(Logger.prototype, 'warn');
    api = await TestApp.start(database, {
      ADMIN_API_KEYS: `${ADMIN_KEY}, ${SECOND_ADMIN_KEY}`,
      SDK_API_KEYS: SDK_KEY,
      ADMIN_PREFIX_ALIASES: 'thunder,/',
    });
  });
  afterAll(async () => {
    warnings.mockRestore();
    await api.close();
  });

  it('does not warn that the admin API is open when it has keys', () => {
    expect(warnings).not.toHaveBeenCalledWith(OPEN_ADMIN_API_WARNING);
  });

  const send = (route: Route, headers: Record<string, string>) => api.request(route.method, route.path, { body: route.body, headers });

  /** Past the guard: whatever the route answers, it is not the key's refusal. */
  const expectAdmitted = (response: { status: number; body: any }) => {
    expect(response.status).not.toBe(401);
    expect(response.body?.error?.code).not.toBe('UNAUTHORIZED');
  };

  describe.each(ADMIN_ROUTES.map((route) => [label(route), route] as const))('admin %s', (_, route) => {
    it('refuses a request without a key, or with a wrong one or an SDK key', async () => {
      const refused: Record<string, string>[] = [
        {},
        { 'x-api-key': 'wrong' },
        { authorization: 'Bearer wrong' },
        { authorization: ADMIN_KEY },
        { 'x-api-key': SDK_KEY },
        { authorization: `Bearer ${SDK_KEY}` },
      ];
      for (const headers of refused) {
        const response = await send(route, { ...ADMIN_HEADERS, ...headers });
        expect({ headers, status: response.status, body: response.body }).toEqual({ headers, status: 401, body: UNAUTHORIZED });
      }
    });

    it('admits a bearer key, an x-api-key, and an x-api-key beside another bearer token', async () => {
      expectAdmitted(await send(route, { ...ADMIN_HEADERS, authorization: `Bearer ${ADMIN_KEY}` }));
      expectAdmitted(await send(route, { ...ADMIN_HEADERS, authorization: `bearer ${SECOND_ADMIN_KEY}` }));
      expectAdmitted(await send(route, { ...ADMIN_HEADERS, 'x-api-key': SECOND_ADMIN_KEY }));
      expectAdmitted(await send(route, { ...ADMIN_HEADERS, authorization: 'Bearer app-session-token', 'x-api-key': ADMIN_KEY }));
    });
  });

  describe.each(SDK_ROUTES.map((route) => [label(route), route] as const))('SDK %s', (_, route) => {
    it('refuses a request without a key, or with a wrong one or an admin key', async () => {
      const refused: Record<string, string>[] = [
        {},
        { 'x-api-key': 'wrong' },
        { 'x-api-key': ADMIN_KEY },
        { authorization: `Bearer ${ADMIN_KEY}` },
      ];
      for (const headers of refused) {
        const response = await send(route, { ...SDK_HEADERS, ...headers });
        expect({ headers, status: response.status, body: response.body }).toEqual({ headers, status: 401, body: UNAUTHORIZED });
      }
    });

    it('admits a bearer key, an x-api-key, and an x-api-key beside the app own bearer token', async () => {
      expectAdmitted(await send(route, { ...SDK_HEADERS, authorization: `Bearer ${SDK_KEY}` }));
      expectAdmitted(await send(route, { ...SDK_HEADERS, 'x-api-key': SDK_KEY }));
      expectAdmitted(await send(route, { ...SDK_HEADERS, authorization: 'Bearer user-jwt.abc.def', 'x-api-key': SDK_KEY }));
    });
  });

  it('serves a keyed request end to end: the admin API with its key, the SDK API with its key', async () => {
    const created = await api.post(
      '/engine/events',
      { events: [{ eventName: 'app_open', properties: [] }] },
      { ...ADMIN_HEADERS, 'x-api-key': ADMIN_KEY },
    );
    expect(created.status).toBe(200);
    const listed = await api.get('/engine/events/list/names', { authorization: `Bearer ${ADMIN_KEY}` });
    expect(listed).toMatchObject({ status: 200, body: { data: { eventNames: ['app_open'] } } });
    const launch = await api.post('/cta/active/state-machines', undefined, { ...SDK_HEADERS, 'x-api-key': SDK_KEY });
    expect(launch).toMatchObject({ status: 200, body: { data: { ctas: [], behaviourTags: [] } } });
  });

  it('keeps health, docs and metrics open without a key', async () => {
    for (const path of ['/health', '/health/ready', '/docs', '/docs-json', '/metrics']) {
      const response = await api.get(path);
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
    }
  });

  it('documents the admin key (x-api-key or bearer) on admin routes and the SDK key on SDK routes', async () => {
    const document = (await api.get('/docs-json')).body;
    expect(Object.keys(document.components.securitySchemes)).toEqual(expect.arrayContaining(['admin-key', 'admin-key-bearer', 'sdk-key']));
    expect(document.paths['/engine/ctas'].get.security).toEqual([{ 'admin-key': [] }, { 'admin-key-bearer': [] }]);
    expect(document.paths['/cta/nudge/preview/{id}'].get.security).toEqual([{ 'sdk-key': [] }]);
    expect(document.paths['/cta/active/state-machines'].post.security).toEqual([{ 'sdk-key': [], appUserToken: [] }]);
  });
});

eachDatabase('security headers and CORS', (database) => {
  let api: TestApp;

  beforeAll(async () => {
    api = await TestApp.start(database, { CORS_ORIGINS: 'https://panel.example.com,https://admin.example.com' });
  });
  afterAll(() => api.close());

  it('sends X-Content-Type-Options: nosniff on successes, errors, docs and metrics', async () => {
    const responses = [
      await api.get('/health'),
      await api.get('/engine/ctas'),
      await api.get('/engine/ctas/not-a-number'),
      await api.get('/engine/no-such-route'),
      await api.post('/engine/ctas', '{bad json'),
      await api.post('/cta/active/state-machines', undefined, { 'auth-userid': '1', api_version: '1' }),
      await api.get('/docs'),
      await api.get('/docs-json'),
      await api.get('/metrics'),
    ];
    expect(responses.map((response) => response.status)).toEqual([200, 200, 400, 404, 400, 200, 200, 200, 200]);
    for (const response of responses) {
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    }
  });

  it('still lets the Swagger UI page load its scripts and styles', async () => {
    const page = await api.get('/docs');
    expect(String(page.body)).toContain('swagger-ui-bundle.js');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self' 'unsafe-inline'");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    const scriptPath = /src="([^"]*swagger-ui-bundle\.js)"/.exec(String(page.body))?.[1] as string;
    const initPath = /src="([^"]*swagger-ui-init\.js)"/.exec(String(page.body))?.[1] as string;
    for (const asset of [scriptPath, initPath]) {
      const response = await api.get(new URL(asset, 'http://localhost/docs').pathname);
      expect({ asset, status: response.status }).toEqual({ asset, status: 200 });
      expect(response.headers['content-type']).toContain('javascript');
    }
  });

  it('answers a preflight from a configured origin, echoing it', async () => {
    const response = await api.request('OPTIONS', '/engine/ctas', {
      headers: {
        origin: 'https://panel.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,user,x-api-key',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('https://panel.example.com');
    // The panel also edits and deletes: PUT, PATCH and DELETE beyond the plugin's default GET, HEAD, POST.
    expect(String(response.headers['access-control-allow-methods']).split(/, */).sort()).toEqual([
      'DELETE',
      'GET',
      'HEAD',
      'PATCH',
      'POST',
      'PUT',
    ]);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('echoes a configured origin on a plain request and its errors', async () => {
    const ok = await api.get('/engine/ctas', { origin: 'https://admin.example.com' });
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe('https://admin.example.com');
    const failed = await api.get('/engine/ctas/x', { origin: 'https://admin.example.com' });
    expect(failed.status).toBe(400);
    expect(failed.headers['access-control-allow-origin']).toBe('https://admin.example.com');
  });

  it('does not allow an origin that is not configured', async () => {
    const response = await api.request('OPTIONS', '/engine/ctas', {
      headers: { origin: 'https://evil.example.com', 'access-control-request-method': 'POST' },
    });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    const plain = await api.get('/engine/ctas', { origin: 'https://evil.example.com' });
    expect(plain.headers['access-control-allow-origin']).toBeUndefined();
  });
});

eachDatabase('open APIs by default', (database) => {
  let api: TestApp;
  let warnings: jest.SpyInstance;

  beforeAll(async () => {
    warnings = jest.spyOn(Logger.prototype, 'warn');
    api = await TestApp.start(database);
  });
  afterAll(async () => {
    warnings.mockRestore();
    await api.close();
  });

  it('warns at start that the admin API is open', () => {
    expect(warnings).toHaveBeenCalledWith(OPEN_ADMIN_API_WARNING);
  });

  it('serves admin and SDK routes without a key when no keys are configured, and allows any origin', async () => {
    const list = await api.get('/engine/ctas', { origin: 'https://anywhere.example.com' });
    expect(list.status).toBe(200);
    expect(list.headers['access-control-allow-origin']).toBe('*');
    const launch = await api.post('/cta/active/state-machines', undefined, SDK_HEADERS);
    expect(launch.status).toBe(200);
  });
});
