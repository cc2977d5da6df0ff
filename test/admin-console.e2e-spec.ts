import { CONSOLE_OPERATOR, startConsoleApp } from './console-examples';
import {
  authorize,
  authorizeSlot,
  describeInBrowser,
  execute,
  openConsole,
  startConsoleSession,
  tryOut,
  type ConsoleSession,
} from './console-browser';
import { eachDatabase, TestApp } from './harness';

type Json = Record<string, any>;

/** The named example of a request body (the first when no name is given), as Swagger UI offers it. */
function bodyExample(operation: Json, name?: string): unknown {
  const examples = operation.requestBody.content['application/json'].examples as Json;
  return (name ? examples[name] : Object.values(examples)[0]).value;
}

/** A path with its parameters' examples filled in, as Swagger UI's "Try it out" fills them. */
function examplePath(document: Json, path: string, method: string): string {
  const parameters = (document.paths[path][method].parameters ?? []) as Json[];
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const parameter = parameters.find((candidate) => candidate.in === 'path' && candidate.name === name) as Json;
    return encodeURIComponent(parameter.example ?? parameter.schema?.example);
  });
}

/** The query of an operation's parameter examples (`?from=…&to=…`), as "Try it out" fills them. */
function exampleQuery(operation: Json): string {
  const query = new URLSearchParams();
  for (const parameter of (operation.parameters ?? []) as Json[]) {
    const example = parameter.example ?? parameter.schema?.example;
    if (parameter.in === 'query' && example !== undefined) query.set(parameter.name, String(example));
  }
  return query.size > 0 ? `?${query}` : '';
}

/** The header examples of an operation (api_version, auth-userid), as "Try it out" sends them. */
function exampleHeaders(operation: Json): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const parameter of (operation.parameters ?? []) as Json[]) {
    const example = parameter.example ?? parameter.schema?.example;
    if (parameter.in === 'header' && example !== undefined) headers[parameter.name] = String(example);
  }
  return headers;
}

eachDatabase('The admin console quick start', (database) => {
  let api: TestApp;
  let document: Json;

  beforeAll(async () => {
    ({ api, document } = await startConsoleApp(database));
  });
  afterAll(() => api.close());

  it('runs in the order of the description on an empty database: events, CTA, tag, go live, launch serves the CTA', async () => {
    const run = async (method: 'post' | 'put', path: string) => {
      const operation = document.paths[path][method];
      const body = operation.requestBody ? bodyExample(operation) : undefined;
      const response = await api.request(method.toUpperCase(), examplePath(document, path, method), {
        body,
        headers: { ...CONSOLE_OPERATOR, ...exampleHeaders(operation) },
      });
      expect({ path, status: response.status, body: response.body }).toMatchObject({ path, status: 200 });
      return response.body;
    };
    expect(await run('post', '/engine/events')).toEqual({ success: true, data: { eventsProcessed: 3 }, statusCode: 200 });
    expect(await run('post', '/engine/ctas')).toEqual({ data: 1 });
    expect(await run('post', '/engine/behaviour-tags')).toEqual({});
    expect(await run('put', '/engine/ctas/{ctaId}/{action}')).toEqual({});
    const launch = await run('post', '/cta/active/state-machines');
    expect(launch.data.ctas.map((cta: Json) => [cta.ctaId, cta.behaviourTagName])).toEqual([['1', 'store-nudges']]);
    expect(launch.data.behaviourTags.map((tag: Json) => tag.behaviourTagName)).toEqual(['store-nudges']);

    // The launch example with the device's state merges it.
    const withState = await api.post(
      '/cta/active/state-machines',
      bodyExample(document.paths['/cta/active/state-machines'].post, 'with state'),
      exampleHeaders(document.paths['/cta/active/state-machines'].post),
    );
    expect(Object.keys(withState.body.data.ctas[0].activeStateMachines)).toEqual(['store-77']);
    expect((await api.get(examplePath(document, '/engine/ctas/{ctaId}', 'get'))).body.data).toMatchObject({
      id: 1,
      ctaStatus: 'live',
      behaviourTags: ['store-nudges'],
    });
    // The insights examples are what the flow counted: the launch's state, one action and one reset.
    for (const path of ['/engine/ctas/{ctaId}/insights', '/engine/insights']) {
      const operation = document.paths[path].get;
      const response = await api.get(`${examplePath(document, path, 'get')}${exampleQuery(operation)}`);
      const documented = operation.responses['200'].content['application/json'].schema.example;
      expect({ path, body: response.body }).toEqual({ path, body: documented });
    }
  });
});

describe('The admin console page', () => {
  it('carries no upgrade-insecure-requests in its Content-Security-Policy (plain HTTP from another machine)', async () => {
    const api = await TestApp.start('sqlite');
    try {
      const page = await api.get('/docs');
      expect(page.status).toBe(200);
      const policy = String(page.headers['content-security-policy']);
      expect(policy).toContain("default-src 'self'");
      expect(policy).not.toContain('upgrade-insecure-requests');
    } finally {
      await api.close();
    }
  });
});

const ADMIN_KEY = 'console-admin-key';
const OTHER_ADMIN_KEY = 'console-other-admin-key';
const SDK_KEY = 'console-sdk-key';
/** A browser is slow to start and draw on a loaded machine; this bounds a hang, it times nothing. */
const BROWSER_TEST_TIMEOUT_MS = 180_000;

describeInBrowser('The admin console in Chromium', () => {
  let session: ConsoleSession;

  beforeAll(async () => {
    session = await startConsoleSession({ ADMIN_API_KEYS: `ops:admin:${ADMIN_KEY},ci:admin:${OTHER_ADMIN_KEY}`, SDK_API_KEYS: SDK_KEY });
  }, BROWSER_TEST_TIMEOUT_MS);
  afterAll(() => session?.close());

  it(
    'opens Authorize on the admin key: slots in order, descriptions shown whole, a key typed at once goes to admin-key',
    async () => {
      const { page } = session;
      await openConsole(session);
      await page.locator('.scheme-container button.authorize').click();
      const headings = await page.locator('.auth-container h4').allInnerTexts();
      expect(headings.map((heading) => heading.split(/\s+/)[0])).toEqual(['admin-key', 'admin-key-bearer', 'sdk-key', 'appUserToken']);
      // Markdown would take a bare <key> for an HTML tag and show "Authorization: Bearer ,".
      const bearerSlot = await authorizeSlot(page, 'admin-key-bearer').innerText();
      expect(bearerSlot).toContain('Authorization: Bearer <key>');
      expect(await authorizeSlot(page, 'appUserToken').innerText()).toContain('Authorization: Bearer <token>');
      expect(await authorizeSlot(page, 'admin-key').innerText()).toContain('Admin key: what an operator enters');

      await page.keyboard.type(ADMIN_KEY);
      expect(await authorizeSlot(page, 'admin-key').locator('input').inputValue()).toBe(ADMIN_KEY);
      expect(await authorizeSlot(page, 'appUserToken').locator('input').inputValue()).toBe('');
      await page.locator('.dialog-ux button.close-modal').click();
      expect(session.consoleErrors).toEqual([]);
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  it(
    'answers 401 naming the slot without a key and naming the conflict with two different admin keys; one key works and stays across a reload',
    async () => {
      const { page } = session;
      await openConsole(session);
      const create = page.locator('#operations-CTAs-CtasController_create');
      await tryOut(create, CONSOLE_OPERATOR.user);

      const unauthorized = await execute(create);
      expect(unauthorized.status).toBe('401');
      expect(JSON.parse(unauthorized.body).error.message).toContain('x-api-key (Authorize: admin-key)');

      await authorize(page, { 'admin-key': ADMIN_KEY, 'admin-key-bearer': OTHER_ADMIN_KEY });
      const conflict = await execute(create);
      expect(conflict.status).toBe('401');
      expect(JSON.parse(conflict.body).error.message).toBe(
        "x-api-key and Authorization: Bearer hold two different admin keys ('ops' and 'ci'); send one " +
          '(in the console, fill admin-key or admin-key-bearer, not both)',
      );

      // Logging out of the bearer slot leaves the admin key alone: the create works.
      await page.locator('.scheme-container button.authorize').click();
      await authorizeSlot(page, 'admin-key-bearer').locator('button', { hasText: 'Logout' }).click();
      await page.locator('.dialog-ux button.close-modal').click();
      const created = await execute(create);
      expect(created.status).toBe('200');
      expect(created.body).toMatch(/"data": 1/);

      // The key survives a reload (persistAuthorization).
      await page.reload();
      await page.locator('.swagger-ui .info .title').waitFor();
      const kept = JSON.parse((await page.evaluate<string | null>('localStorage.getItem("authorized")')) ?? '{}');
      expect(kept).toMatchObject({ 'admin-key': { value: ADMIN_KEY } });
      expect(kept['admin-key-bearer']).toBeUndefined();
      // Chromium logs the two refusals asked for above, and nothing else.
      expect(session.consoleErrors).toEqual(
        Array(2).fill('Failed to load resource: the server responded with a status of 401 (Unauthorized)'),
      );
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
