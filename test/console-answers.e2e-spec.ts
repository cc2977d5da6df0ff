import { AdminClient } from './admin-client';
import { eachDatabase, errorBody, TestApp } from './harness';
import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES } from '../src/audit/audit.types';

/**
 * The console's answers (docs/operator-view.md): refusals a person can act on — where a body stops being JSON,
 * an unknown CTA named before anything its body lacks, no empty page for a CTA that never was, the values an
 * audit filter takes, every malformed day of a range.
 */
eachDatabase("The console's answers", (database) => {
  let api: TestApp;
  let admin: AdminClient;
  beforeAll(async () => {
    api = await TestApp.start(database);
    admin = new AdminClient(api, 'answers');
  });
  afterAll(() => api.close());

  it('names the line and column where a body stops being JSON', async () => {
    const response = await api.request('POST', '/engine/ctas', {
      body: '{\n  "name": "summer-banner",\n  "team": growth,\n  "tags": []\n}',
      headers: { ...admin.headers(), 'content-type': 'application/json' },
    });
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: errorBody('INVALID_REQUEST', 'the body is not valid JSON: at line 3, column 11, an unexpected character'),
    });
  });

  it('PUT /ctas/{id} of an unknown CTA (or a test CTA) answers CTA_ID_INVALID before any rule of its body', async () => {
    const testCta = await admin.testCta([42], 60);
    for (const id of ['999', testCta]) {
      const response = await admin.ctas.update(id, { name: 'renamed' } as never);
      expect({ id, status: response.status, body: response.body }).toEqual({
        id,
        status: 400,
        body: errorBody('CTA_ID_INVALID', `CTA ${id} does not exist`),
      });
    }
    // A CTA that exists still hears what its body lacks.
    const id = await admin.create();
    expect((await admin.ctas.update(id, { name: 'renamed' } as never)).body).toEqual(
      errorBody('INVALID_REQUEST', expect.stringContaining('name cannot be changed on update')),
    );
  });

  it("answers CTA_ID_INVALID for the history and insights of a CTA that never was; a deleted test CTA's history is still read", async () => {
    for (const url of ['/engine/ctas/999/history', '/engine/ctas/999/insights']) {
      const response = await api.get(url, admin.headers());
      expect({ url, status: response.status, body: response.body }).toEqual({
        url,
        status: 400,
        body: errorBody('CTA_ID_INVALID', 'CTA 999 does not exist'),
      });
    }
    const testCta = await admin.testCta([43], 60);
    expect((await admin.testCtas.delete(testCta)).status).toBe(200);
    const history = await admin.ctas.history(testCta);
    expect(history.status).toBe(200);
    expect(history.body.data.entries.map((entry: any) => [entry.entityType, entry.action])).toEqual([
      ['testCta', 'delete'],
      ['testCta', 'create'],
    ]);
    // A CTA with no entry in the page asked for is still known: its page is empty, not an error.
    const id = await admin.create();
    expect((await admin.ctas.history(id, { pageNumber: '5' })).body.data).toMatchObject({ entries: [], totalEntries: 1 });
  });

  it('refuses an audit filter of an unknown action or entity type, naming the values it takes', async () => {
    const refusal = async (query: string) => {
      const response = await api.get(`/engine/audit?${query}`, admin.headers());
      return { status: response.status, body: response.body };
    };
    expect(await refusal('action=aprove')).toEqual({
      status: 400,
      body: errorBody('INVALID_REQUEST', `action must be one of ${AUDIT_ACTIONS.join(', ')}`),
    });
    expect(await refusal('entityType=ctas&action=aprove')).toEqual({
      status: 400,
      body: errorBody(
        'INVALID_REQUEST',
        `entityType must be one of ${AUDIT_ENTITY_TYPES.join(', ')}; action must be one of ${AUDIT_ACTIONS.join(', ')}`,
      ),
    });
    expect((await refusal('entityType=cta&action=approve')).status).toBe(200);
  });

  it('names every malformed day of a range, not only the first', async () => {
    const id = await admin.create();
    for (const url of [`/engine/ctas/${id}/insights`, '/engine/insights']) {
      const response = await api.get(`${url}?from=2026-02-30&to=yesterday`, admin.headers());
      expect({ url, status: response.status, body: response.body }).toEqual({
        url,
        status: 400,
        body: errorBody(
          'INVALID_REQUEST',
          'from must be a UTC day as YYYY-MM-DD, e.g. 2026-03-01, got "2026-02-30"; to must be a UTC day as YYYY-MM-DD, e.g. 2026-03-01, got "yesterday"',
        ),
      });
    }
    const audit = await api.get('/engine/audit?from=today&to=-1', admin.headers());
    expect({ status: audit.status, body: audit.body }).toEqual({
      status: 400,
      body: errorBody(
        'INVALID_REQUEST',
        'from must be epoch milliseconds (a decimal integer ≥ 0); to must be epoch milliseconds (a decimal integer ≥ 0)',
      ),
    });
  });
});

describe("The console's examples with approvals required", () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await TestApp.start('sqlite', { APPROVALS_REQUIRED: 'true', ADMIN_API_KEYS: 'eddie:editor:k-eddie,paula:publisher:k-paula' });
  });
  afterAll(() => api.close());

  it('shows the approve example before go-live and schedule, which say that an approval comes first', async () => {
    const { paths } = (await api.get('/docs-json')).body;
    const order = Object.keys(paths);
    expect(order.indexOf('/engine/ctas/{ctaId}/approve')).toBeLessThan(order.indexOf('/engine/ctas/{ctaId}/{action}'));
    const statusChange = paths['/engine/ctas/{ctaId}/{action}'].put;
    expect(statusChange.summary).toBe(
      "Change a CTA's status (example needs CTA 1 in draft or paused: Create a CTA first, then Approve it with another admin key)",
    );
    expect(statusChange.description).toMatch(
      /^Approvals are required here: live and schedule need an approval .* POST \/engine\/ctas\/\{ctaId\}\/approve \(above\) first\. /,
    );
  });
});
