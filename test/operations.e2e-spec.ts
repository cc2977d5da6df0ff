import { AdminClient, startWithCta } from './admin-client';
import { EXAMPLE_TIME, machine, sdkHeaders } from './fixtures';
import { __resetOutOfContextForTests } from 'nestjs-pino/PinoLogger';
import { PeriodicJobsService } from '../src/scheduling/periodic-jobs.service';
import { CtaListingService } from '../src/ctas/cta-listing.service';
import { SdkStateService } from '../src/sdk/sdk-state.service';
import { eachDatabase, errorBody, TestApp } from './harness';
import { captureLogWrites } from './log-capture';

eachDatabase('operations', (database) => {
  let api: TestApp;

  beforeAll(async () => {
    api = await TestApp.start(database);
  });
  afterAll(() => api.close());

  it('answers liveness and readiness', async () => {
    expect(await api.get('/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
    const ready = await api.get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ok', info: { database: { status: 'up' } } });
  });

  it('answers an unknown route with the NOT_FOUND envelope', async () => {
    const response = await api.get('/engine/no-such-thing');
    expect(response.status).toBe(404);
    expect(response.body).toEqual(errorBody('NOT_FOUND', 'no such route'));
  });

  it('serves the Swagger UI and the OpenAPI document', async () => {
    const ui = await api.get('/docs');
    expect(ui.status).toBe(200);
    expect(String(ui.body)).toContain('swagger');
    const document = await api.get('/docs-json');
    expect(document.status).toBe(200);
    expect(document.body.openapi).toMatch(/^3\./);
    expect(Object.keys(document.body.paths)).toEqual(expect.arrayContaining(['/health', '/health/ready']));
  });

  it('returns the caller request id, or a new one', async () => {
    const given = await api.get('/health', { 'x-request-id': 'abc-123' });
    expect(given.headers['x-request-id']).toBe('abc-123');
    const generated = await api.get('/health');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends the security headers on every response', async () => {
    const response = await api.get('/health');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('exposes Prometheus metrics with request counts by route and status', async () => {
    await api.get('/health');
    await api.get('/engine/no-such-thing');
    const response = await api.get('/metrics');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    const text = String(response.body);
    expect(text).toMatch(/cta_http_request_duration_seconds_count\{method="GET",route="\/health",status="200"\} [1-9]/);
    expect(text).toMatch(/cta_http_request_duration_seconds_count\{method="GET",route="unmatched",status="404"\} [1-9]/);
    expect(text).toContain('process_cpu_seconds_total');
  });
});

/** The value of one sample in the Prometheus text, 0 when the series does not exist yet. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (match && match[1] === name && wanted.every((label) => match[2].split(',').includes(label))) {
      return Number(match[3]);
    }
  }
  return 0;
}

eachDatabase('metrics', (database) => {
  let api: TestApp;
  let catalogue: AdminClient;
  let ctaId: string;

  beforeAll(async () => {
    ({ api, catalogue, ctaId } = await startWithCta(database, 'metrics'));
  });
  afterAll(() => api.close());

  const scrape = async (): Promise<string> => String((await api.get('/metrics')).body);
  /** How much each of `series` moved while `action` ran. */
  type Series = Record<string, readonly [string, Readonly<Record<string, string>>]>;
  async function deltas(series: Series, action: () => Promise<unknown>) {
    const before = await scrape();
    await action();
    const after = await scrape();
    return Object.fromEntries(
      Object.entries(series).map(([key, [name, labels]]) => [key, sample(after, name, labels) - sample(before, name, labels)]),
    );
  }

  it('counts requests and their latency by method, route pattern and status', async () => {
    const route = { method: 'GET', route: '/engine/ctas/:ctaId' };
    const moved = await deltas(
      {
        ok: ['cta_http_request_duration_seconds_count', { ...route, status: '200' }],
        refused: ['cta_http_request_duration_seconds_count', { ...route, status: '400' }],
        okSlowerThanForever: ['cta_http_request_duration_seconds_bucket', { ...route, status: '200', le: '+Inf' }],
        created: ['cta_http_request_duration_seconds_count', { method: 'POST', route: '/engine/ctas', status: '200' }],
      },
      async () => {
        await api.get(`/engine/ctas/${ctaId}`, { 'x-tenant-id': 'metrics' });
        await api.get(`/engine/ctas/${ctaId}`, { 'x-tenant-id': 'metrics' });
        await api.get('/engine/ctas/not-a-number', { 'x-tenant-id': 'metrics' });
        await catalogue.cta({ actions: [] });
      },
    );
    expect(moved).toEqual({ ok: 2, refused: 1, okSlowerThanForever: 2, created: 1 });
    const text = await scrape();
    expect(sample(text, 'cta_http_request_duration_seconds_sum', { ...route, status: '200' })).toBeGreaterThan(0);
    expect(text).toMatch(
      /cta_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/engine\/ctas\/:ctaId",status="200"\} \d+/,
    );
  });

  it('counts launch catalogue cache misses and hits', async () => {
    const series = {
      hit: ['cta_launch_catalogue_cache_total', { result: 'hit' }],
      miss: ['cta_launch_catalogue_cache_total', { result: 'miss' }],
    } as const;
    const launch = () => api.post('/cta/active/state-machines', undefined, sdkHeaders('metrics', '1'));
    // An admin write drops the cached catalogue: the next launch rebuilds it, the one after reads the cache.
    await catalogue.cta();
    expect(await deltas(series, launch)).toEqual({ hit: 0, miss: 1 });
    expect(await deltas(series, launch)).toEqual({ hit: 1, miss: 0 });
  });

  it('counts state machines merged (applied) and skipped as stale or unknown (ignored)', async () => {
    const series = {
      applied: ['cta_snapshot_merges_total', { result: 'applied' }],
      ignored: ['cta_snapshot_merges_total', { result: 'ignored' }],
    } as const;
    const movedAt = (lastTransitionAt: number) => machine('1', lastTransitionAt, { createdAt: EXAMPLE_TIME });
    const delta = (snapshots: unknown[]) => api.post('/cta/state-machines/snapshot/delta', { ctas: snapshots }, sdkHeaders('metrics', '2'));
    expect(
      await deltas(series, () => delta([{ ctaId, activeStateMachines: { a: movedAt(EXAMPLE_TIME + 10), b: movedAt(EXAMPLE_TIME) } }])),
    ).toEqual({
      applied: 2,
      ignored: 0,
    });
    // `a` is older than the stored one; the CTA 999999 is unknown to the tenant.
    const stale = [
      { ctaId, activeStateMachines: { a: movedAt(EXAMPLE_TIME), c: movedAt(EXAMPLE_TIME) } },
      { ctaId: '999999', activeStateMachines: { z: movedAt(EXAMPLE_TIME) } },
    ];
    const moved = await deltas(series, () => delta(stale));
    expect(moved.applied).toBe(1);
    expect(moved.ignored).toBeGreaterThanOrEqual(1);
  });

  it('counts periodic job runs by job and outcome', async () => {
    const jobs = api.service(PeriodicJobsService);
    const before = await scrape();
    await jobs.runAll();
    await jobs.runAll();
    const after = await scrape();
    const jobNames = [...after.matchAll(/cta_scheduler_job_runs_total\{job="([^"]+)",outcome="success"\}/g)].map((match) => match[1]);
    expect(jobNames.length).toBeGreaterThan(0);
    for (const job of jobNames) {
      const moved =
        sample(after, 'cta_scheduler_job_runs_total', { job, outcome: 'success' }) -
        sample(before, 'cta_scheduler_job_runs_total', { job, outcome: 'success' });
      expect({ job, moved }).toEqual({ job, moved: 2 });
    }
  });
});

describe('request ids in logs', () => {
  let api: TestApp;
  let written: string[];
  const capture = (chunk: unknown): void => void written.push(String(chunk));
  /** The JSON log lines written since `written` was last emptied. */
  const loggedLines = (): Record<string, any>[] =>
    written
      .join('')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));

  beforeAll(async () => {
    written = [];
    captureLogWrites(capture);
    // nestjs-pino keeps the first app's logger (here a silent one) for lines outside a request context.
    __resetOutOfContextForTests();
    api = await TestApp.start('sqlite', { LOG_LEVEL: 'info' });
  });
  afterAll(async () => {
    await api.close();
    jest.restoreAllMocks();
  });

  it('names the request in every log line of a request, the same id as the x-request-id header', async () => {
    written = [];
    const ok = await api.get('/engine/ctas', { 'x-request-id': 'trace-ok-1' });
    const failed = await api.get('/engine/ctas/x', { 'x-request-id': 'trace-failed-1' });
    const generated = await api.get('/engine/filters');
    expect([ok.status, failed.status, generated.status]).toEqual([200, 400, 200]);
    const lines = loggedLines();
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) {
      expect(line.req?.id ?? line.reqId).toEqual(expect.any(String));
    }
    const idsLogged = lines.map((line) => line.req?.id ?? line.reqId);
    expect(idsLogged).toEqual(expect.arrayContaining(['trace-ok-1', 'trace-failed-1', generated.headers['x-request-id']]));
    expect(lines.find((line) => line.reqId === 'trace-ok-1')).toMatchObject({
      req: { method: 'GET', url: '/engine/ctas' },
      res: { statusCode: 200 },
    });
  });

  it('writes no access line for SDK calls, the hot path', async () => {
    written = [];
    const launch = await api.post('/cta/active/state-machines', undefined, { ...sdkHeaders('logs', '1'), 'x-request-id': 'trace-sdk-ok' });
    const admin = await api.get('/engine/filters', { 'x-request-id': 'trace-admin-ok' });
    expect([launch.status, admin.status]).toEqual([200, 200]);
    expect(loggedLines().map((line) => line.reqId)).toEqual(['trace-admin-ok']);
  });

  it('names the request in the error line of a failure, on admin and on SDK routes', async () => {
    jest.spyOn(CtaListingService.prototype, 'filterValues').mockRejectedValueOnce(new Error('admin bug'));
    jest.spyOn(SdkStateService.prototype, 'launch').mockRejectedValueOnce(new Error('sdk bug'));
    written = [];
    const admin = await api.get('/engine/filters', { 'x-request-id': 'trace-admin-500' });
    const sdk = await api.post('/cta/active/state-machines', undefined, { ...sdkHeaders('logs', '1'), 'x-request-id': 'trace-sdk-500' });
    expect([admin.status, sdk.status]).toEqual([500, 500]);
    expect(admin.headers['retry-after']).toBeUndefined();
    const failures = loggedLines().filter((line) => line.msg === 'request failed');
    expect(failures.map((line) => [line.requestId, line.code, line.err?.message])).toEqual([
      ['trace-admin-500', 'INTERNAL_ERROR', 'admin bug'],
      ['trace-sdk-500', 'INTERNAL_ERROR', 'sdk bug'],
    ]);
  });

  it('logs a database outage quietly: one warn line per cause with the count, no stack trace, every request still a 503', async () => {
    const unreachable = () => Object.assign(new Error('connect ECONNREFUSED 10.0.0.9:3306'), { code: 'ECONNREFUSED' });
    const filters = jest.spyOn(CtaListingService.prototype, 'filterValues').mockImplementation(() => Promise.reject(unreachable()));
    const launch = jest.spyOn(SdkStateService.prototype, 'launch').mockImplementation(() => Promise.reject(unreachable()));
    written = [];
    const responses = [];
    for (let index = 0; index < 20; index++) {
      responses.push(await api.get('/engine/filters', { 'x-request-id': `trace-admin-503-${index}` }));
      responses.push(
        await api.post('/cta/active/state-machines', undefined, { ...sdkHeaders('logs', '1'), 'x-request-id': `trace-sdk-503-${index}` }),
      );
    }
    filters.mockRestore();
    launch.mockRestore();
    expect(responses.map((response) => [response.status, response.headers['retry-after']])).toEqual(responses.map(() => [503, '5']));
    const lines = loggedLines().filter((line) => line.level >= 40);
    // The first refusal is logged at once; the next 39 fall inside the quiet period (their count comes with the next line).
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        msg: 'database unavailable: requests answered 503',
        cause: 'ECONNREFUSED',
        refused: 1,
        requestId: 'trace-admin-503-0',
      }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('stack');
  });
});
