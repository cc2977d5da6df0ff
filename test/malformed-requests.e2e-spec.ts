import { AdminClient } from './admin-client';
import { runClockAfterExamples } from './fixtures';
import { ErrorCode, HTTP_STATUS_OF } from '../src/common/error-code';
import { databaseContents } from './database-contents';
import { eachDatabase, TestApp, TestResponse } from './harness';
import { ADMIN, bodyEndpoints, bodyRequests, type Seeded, TENANT } from './malformed-bodies';
import { headerRequests, pathRequests, routes } from './malformed-routes';

/**
 * The bad-input sweep (issue 8): hundreds of malformed requests, generated from
 * the tables in malformed-bodies.ts and malformed-routes.ts, across every admin and SDK endpoint. Every one must answer
 * a 4xx with the error envelope, and none may change the database.
 */

const ERROR_CODES = new Set<string>(Object.values(ErrorCode));

eachDatabase('malformed requests', (database) => {
  let api: TestApp;
  let seed: Seeded;

  beforeAll(async () => {
    api = await TestApp.start(database);
    runClockAfterExamples(api);
    // Seed one of everything through the API, with the valid bodies the sweep spoils.
    const catalogue = new AdminClient(api, TENANT);
    const liveCtaId = await catalogue.cta();
    const draftCtaId = Number(await catalogue.cta({ actions: [] }));
    seed = { draftCtaId, liveCtaId, tagName: 'seeded-tag', eventName: 'seeded_event' };
    const endpoints = bodyEndpoints(seed);
    const valid = (label: string) => endpoints.find((endpoint) => endpoint.label === label)!;
    const writes: [string, Promise<TestResponse>][] = [
      ['tag', api.post('/engine/behaviour-tags', { ...valid('create behaviour tag').valid(), behaviourTagName: seed.tagName }, ADMIN)],
      ['event', api.post('/engine/events', { events: [{ eventName: seed.eventName, properties: [] }] }, ADMIN)],
    ];
    for (const endpoint of endpoints.filter(
      (candidate) => !['update behaviour tag', 'replace event properties'].includes(candidate.label),
    )) {
      writes.push([endpoint.label, api.request(endpoint.method, endpoint.path(), { headers: endpoint.headers, body: endpoint.valid() })]);
    }
    for (const [label, write] of writes) {
      const response = await write;
      expect({ label, status: response.status, body: response.body }).toEqual({
        label,
        status: 200,
        body: response.status === 200 ? response.body : null,
      });
    }
    for (const endpoint of endpoints.filter((candidate) =>
      ['update behaviour tag', 'replace event properties'].includes(candidate.label),
    )) {
      const response = await api.request(endpoint.method, endpoint.path(), { headers: endpoint.headers, body: endpoint.valid() });
      expect({ label: endpoint.label, status: response.status }).toEqual({ label: endpoint.label, status: 200 });
    }
  });
  afterAll(() => api.close());

  it('answers at least 300 malformed requests with 4xx error envelopes, and changes nothing', async () => {
    const endpoints = bodyEndpoints(seed);
    const requests = [...bodyRequests(endpoints), ...headerRequests(routes(seed, endpoints)), ...pathRequests(seed)];
    expect(requests.length).toBeGreaterThanOrEqual(300);

    const before = await databaseContents(api);
    const wrong: unknown[] = [];
    for (const request of requests) {
      const response = await api.request(request.method, request.path, { headers: request.headers, body: request.body });
      const { error, ...rest } = (response.body ?? {}) as { error?: { code?: unknown; message?: unknown } };
      const envelope =
        typeof response.body === 'object' &&
        Object.keys(rest).length === 0 &&
        error !== undefined &&
        Object.keys(error).sort().join() === 'code,message' &&
        typeof error.message === 'string' &&
        error.message.length > 0 &&
        ERROR_CODES.has(String(error.code)) &&
        HTTP_STATUS_OF[error.code as ErrorCode] === response.status;
      if (response.status < 400 || response.status >= 500 || !envelope || response.headers['x-content-type-options'] !== 'nosniff') {
        wrong.push({ label: request.label, status: response.status, body: String(JSON.stringify(response.body)).slice(0, 200) });
      }
    }
    expect(wrong).toEqual([]);
    expect(await databaseContents(api)).toEqual(before);
  });
});
