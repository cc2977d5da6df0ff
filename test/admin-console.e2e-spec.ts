import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { eachDatabase, TestApp } from './harness';

type Json = Record<string, any>;

const ADMIN_KEY = 'console-admin-key';
const SDK_KEY = 'console-sdk-key';
const OPERATOR = { user: 'ops@example.com' };

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

eachDatabase('The admin console examples', (database) => {
  let api: TestApp;
  let document: Json;

  beforeAll(async () => {
    api = await TestApp.start(database);
    document = (await api.get('/docs-json')).body;
  });
  afterAll(() => api.close());

  it('run in the quick start order on an empty database: event, CTA, tag, go live, launch serves the CTA', async () => {
    const run = async (method: 'post' | 'put', path: string, headers: Record<string, string> = {}) => {
      const operation = document.paths[path][method];
      const body = operation.requestBody ? bodyExample(operation) : undefined;
      const response = await api.request(method.toUpperCase(), examplePath(document, path, method), {
        body,
        headers: { ...OPERATOR, ...exampleHeaders(operation), ...headers },
      });
      expect({ path, status: response.status, body: response.body }).toMatchObject({ path, status: 200 });
      return response.body;
    };
    expect(await run('post', '/engine/events')).toEqual({ success: true, data: { eventsProcessed: 2 }, statusCode: 200 });
    expect(await run('post', '/engine/ctas')).toEqual({ data: 1 });
    expect(await run('post', '/engine/behaviour-tags')).toEqual({});
    expect(await run('put', '/engine/ctas/{ctaId}/{action}')).toEqual({});
    const launch = await run('post', '/cta/active/state-machines');
    expect(launch.data.ctas.map((cta: Json) => [cta.ctaId, cta.behaviourTagName])).toEqual([['1', 'store-nudges']]);
    expect(launch.data.behaviourTags.map((tag: Json) => tag.behaviourTagName)).toEqual(['store-nudges']);

    // The launch example with the device's state merges it, and the other path examples name what the flow made.
    const withState = await api.post(
      '/cta/active/state-machines',
      bodyExample(document.paths['/cta/active/state-machines'].post, 'with state'),
      exampleHeaders(document.paths['/cta/active/state-machines'].post),
    );
    expect(Object.keys(withState.body.data.ctas[0].activeStateMachines)).toEqual(['store-77']);
    for (const path of ['/engine/ctas/{ctaId}', '/engine/events/{eventName}']) {
      expect({ path, status: (await api.get(examplePath(document, path, 'get'))).status }).toEqual({ path, status: 200 });
    }
    const record = (await api.get(examplePath(document, '/engine/ctas/{ctaId}', 'get'))).body.data;
    expect(record).toMatchObject({ id: 1, ctaStatus: 'live', behaviourTags: ['store-nudges'] });
    // The insights examples are what the flow counted: the launch's state, one action and one reset.
    for (const path of ['/engine/ctas/{ctaId}/insights', '/engine/insights']) {
      const operation = document.paths[path].get;
      const response = await api.get(`${examplePath(document, path, 'get')}${exampleQuery(operation)}`);
      const documented = operation.responses['200'].content['application/json'].schema.example;
      expect({ path, body: response.body }).toEqual({ path, body: documented });
    }
  });

  it('include a test CTA the delete example removes, and a nudge preview the read example finds', async () => {
    const create = document.paths['/engine/ctas/test/create'].post;
    expect((await api.post('/engine/ctas/test/create', bodyExample(create), OPERATOR)).body).toEqual({ data: 2 });
    const remove = examplePath(document, '/engine/ctas/test/{ctaId}', 'delete');
    expect((await api.delete(remove)).body).toEqual({ data: null });

    expect((await api.post('/engine/nudge/preview', bodyExample(document.paths['/engine/nudge/preview'].post))).status).toBe(200);
    const preview = await api.get(examplePath(document, '/cta/nudge/preview/{id}', 'get'));
    expect(preview.body.data).toMatchObject({ id: 'spring-sale-banner' });
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

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const IN_CI = process.env.CI === 'true';
/** A browser is slow to start and draw on a loaded machine; these bound a hang, they time nothing. */
const BROWSER_TEST_TIMEOUT_MS = 180_000;
const BROWSER_STEP_TIMEOUT_MS = 60_000;

/**
 * The console as an operator on another machine opens it: by a host name, not loopback, so Chromium treats the
 * page as an insecure origin (where `upgrade-insecure-requests` breaks every asset). The name maps to 127.0.0.1,
 * so no traffic leaves loopback.
 */
const CONSOLE_HOST = 'cta-console.test';

if (!existsSync(CHROMIUM) && !IN_CI) {
  console.warn(
    `Skipping the admin console browser test: ${CHROMIUM} is missing (apt-get install chromium). In CI (CI=true) it fails instead.`,
  );
}
const describeInBrowser = existsSync(CHROMIUM) || IN_CI ? describe : describe.skip;

describeInBrowser('The admin console in Chromium', () => {
  let api: TestApp;
  let browser: Browser;
  let page: Page;
  let origin: string;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`${CHROMIUM} is missing: CI must install chromium (.ci/run does)`);
    }
    api = await TestApp.start('sqlite', { ADMIN_API_KEYS: ADMIN_KEY, SDK_API_KEYS: SDK_KEY });
    await api.app.listen(0, '127.0.0.1');
    origin = `http://${CONSOLE_HOST}:${(api.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${CONSOLE_HOST} 127.0.0.1`],
    });
    page = await browser.newPage();
    page.setDefaultTimeout(BROWSER_STEP_TIMEOUT_MS);
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    page.on('requestfailed', (request) => consoleErrors.push(`${request.url()}: ${request.failure()?.errorText}`));
  }, BROWSER_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  it(
    'loads over plain HTTP, authorizes with an admin key, and creates a CTA with "Try it out", without a console error',
    async () => {
      await page.goto(`${origin}/docs`);
      // A page whose scripts did not load (e.g. sent to https by the CSP) shows no title: say why.
      await page
        .locator('.swagger-ui .info .title')
        .filter({ hasText: 'admin console' })
        .waitFor()
        .catch((error: Error) => {
          throw new Error(`the console did not render: ${error.message}\nbrowser errors: ${consoleErrors.join('\n')}`);
        });

      await page.locator('.scheme-container button.authorize').click();
      const slot = page.locator('.auth-container').filter({ has: page.locator('h4', { hasText: 'admin-key (apiKey)' }) });
      await slot.locator('input').fill(ADMIN_KEY);
      await slot.locator('button.authorize').click();
      await page.locator('.dialog-ux button.close-modal').click();

      const create = page.locator('#operations-CTAs-CtasController_create');
      await create.locator('.opblock-summary').click();
      await create.locator('button.try-out__btn').click();
      await create.locator('tr[data-param-name="user"] input').fill(OPERATOR.user);
      await create.locator('button.execute').click();
      const response = create.locator('.live-responses-table .response');
      await response.locator('.response-col_status').filter({ hasText: '200' }).waitFor();
      expect(await response.locator('.response-col_description').innerText()).toMatch(/"data": 1/);

      // The key survives a reload (persistAuthorization).
      await page.reload();
      await page.locator('.swagger-ui .info .title').waitFor();
      expect(JSON.parse((await page.evaluate<string | null>('localStorage.getItem("authorized")')) ?? '{}')).toMatchObject({
        'admin-key': { value: ADMIN_KEY },
      });
      expect(consoleErrors).toEqual([]);
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
