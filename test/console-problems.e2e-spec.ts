import { AdminClient } from './admin-client';
import { examples, machine, sdkHeaders } from './fixtures';
import { eachDatabase, errorBody, TestApp } from './harness';

const USER_ID_RULE = 'must be a user id: an integer (a decimal string beyond 2^53) that fits a signed 64-bit long';
const NOT_AN_ID = 'is not a user id (a signed 64-bit integer)';

eachDatabase('Every problem of a body in one answer', (database) => {
  let api: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    api = await TestApp.start(database);
    admin = new AdminClient(api, 'problems');
  });
  afterAll(() => api.close());

  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    api.post(url, body, { ...admin.headers(), ...headers });

  it('nudge preview: wrong types and empty fields together; empty fields alone keep the seed code', async () => {
    expect(await post('/engine/nudge/preview', { id: '', ttl: 'ten' })).toMatchObject({
      status: 400,
      body: errorBody('INVALID_REQUEST', 'ttl must be an integer number; id must not be null or empty; template must not be null or empty'),
    });
    expect(await post('/engine/nudge/preview', { id: ' ', template: null })).toMatchObject({
      status: 400,
      body: errorBody('NUDGE_PREVIEW_TEMPLATE_NOT_FOUND_EXCEPTION', 'id must not be null or empty; template must not be null or empty'),
    });
  });

  it('cohort create and update: kind, reserved name, description and rule at once', async () => {
    expect(await post('/engine/cohorts', { name: 'all', kind: 'list' })).toMatchObject({
      status: 400,
      body: errorBody(
        'INVALID_REQUEST',
        "kind must be one of the following values: static, rule; name 'all' is reserved: every user is in it",
      ),
    });
    const rule = { all: [{ attribute: 'osVersion', op: 'eq', value: '1' }, { cohort: 'nobody' }] };
    expect(await post('/engine/cohorts', { name: 'bad name', description: 'x'.repeat(10_001), kind: 'rule', rule })).toMatchObject({
      status: 400,
      body: errorBody(
        'INVALID_REQUEST',
        `name must be 1-255 characters of A-Z, a-z, 0-9, '.', '_', ':' or '-' (got "bad name"); description must be at most 10000 characters; ` +
          'rule.all[0].attribute: "osVersion" is not one of appVersion, packageName, hotpatchVersion; ' +
          'rule.all[1].cohort: "nobody" is not a static cohort of the tenant',
      ),
    });
    expect(await post('/engine/cohorts', { name: 'all', kind: 'static', rule })).toMatchObject({
      status: 400,
      body: errorBody(
        'INVALID_REQUEST',
        "name 'all' is reserved: every user is in it; rule: static cohorts have no rule (their members are uploaded)",
      ),
    });
    expect((await post('/engine/cohorts', { name: 'beta', kind: 'static' })).status).toBe(200);
    expect(await api.put('/engine/cohorts/beta', { kind: 'rule', description: 'x'.repeat(10_001), rule }, admin.headers())).toMatchObject({
      status: 400,
      body: errorBody(
        'INVALID_REQUEST',
        'kind cannot be changed (delete the cohort and create it again); description must be at most 10000 characters; ' +
          'rule: static cohorts have no rule (their members are uploaded)',
      ),
    });
  });

  it('test CTA: every bad user id by index, beside the rule and the other fields', async () => {
    const rule = { ...examples.rule(), stateToAction: { '1': 'store_banner', '2': 'popup' } };
    const ruleProblem = 'rule.stateToAction.2: "popup" is not an actionId of rule.actions';
    // The fields' types are right: the service names the ids and the rule.
    expect(await post('/engine/ctas/test/create', { userIds: ['x', 42, 1.5, '7'], expiresInMinutes: 60, rule })).toMatchObject({
      status: 400,
      body: errorBody('CTA_CREATION_ERROR', `userIds[0] ${USER_ID_RULE}; userIds[2] ${USER_ID_RULE}; ${ruleProblem}`),
    });
    // A field of the wrong type too: the body pipe names it with the rest.
    expect(await post('/engine/ctas/test/create', { userIds: [true], expiresInMinutes: 0, previousCtaId: 'x', rule })).toMatchObject({
      status: 400,
      body: errorBody(
        'CTA_CREATION_ERROR',
        `expiresInMinutes must not be less than 1; userIds[0] ${USER_ID_RULE}; ` +
          `previousCtaId must be a CTA id: a positive integer (number or decimal string); ${ruleProblem}`,
      ),
    });
  });

  it('event definitions: every repeated event and property name', async () => {
    const property = (propertyName: string) => ({ propertyName, type: 'String', isMandatory: false });
    const events = [
      { eventName: 'a', properties: [property('p'), property('q'), property('p')] },
      { eventName: 'b', properties: [property('r'), property('r')] },
      { eventName: 'a', properties: [] },
    ];
    expect(await post('/engine/events', { events })).toMatchObject({
      status: 400,
      body: errorBody(
        'INVALID_REQUEST',
        "event 'a' appears more than once in events; event 'a' has the property 'p' more than once; event 'b' has the property 'r' more than once",
      ),
    });
  });

  it('member uploads: up to 20 bad lines or ids named, the rest counted, nothing changed', async () => {
    expect((await post('/engine/cohorts', { name: 'uploads', kind: 'static' })).status).toBe(200);
    const lines = ['userId', '1', 'x', 'y'.repeat(5000), '2', ...Array.from({ length: 25 }, (_, index) => `bad-${index}`), '3'];
    const csv = await api.request('POST', '/engine/cohorts/uploads/members', {
      body: lines.join('\n'),
      headers: { ...admin.headers(), 'content-type': 'text/csv' },
    });
    const named = [
      `line 3: "x" ${NOT_AN_ID}`,
      `line 4: "${'y'.repeat(37)}..." ${NOT_AN_ID}`,
      ...Array.from({ length: 18 }, (_, index) => `line ${6 + index}: "bad-${index}" ${NOT_AN_ID}`),
    ];
    expect(csv).toMatchObject({ status: 400, body: errorBody('INVALID_REQUEST', `${named.join('; ')}; and 7 more`) });

    const json = await post('/engine/cohorts/uploads/members', { userIds: [1, 'x', 2 ** 60, true, '5'] });
    expect(json).toMatchObject({
      status: 400,
      body: errorBody(
        'INVALID_REQUEST',
        'userIds[1]: "x" is not a signed 64-bit integer; ' +
          `userIds[2]: ${2 ** 60} is not a signed 64-bit integer exactly representable as a JSON number; send it as a decimal string; ` +
          'userIds[3]: true is not a signed 64-bit integer',
      ),
    });
    expect((await api.get('/engine/cohorts/uploads', admin.headers())).body.data.memberCount).toBe(0);
  });

  it("SDK delta: the seed's message first, then every problem at its path; nothing stored", async () => {
    const ctaId = await admin.exampleCta();
    const headers = sdkHeaders('problems', '42');
    const body = {
      ctas: [
        { ctaId, activeStateMachines: { m1: { ...machine('1'), currentState: 1 }, m2: machine('2') } },
        { ctaId: 'abc', activeStateMachines: { m3: { currentState: '1', lastTransitionAt: 1 } }, resetAt: [1, '2'] },
      ],
      behaviourTags: [{ behaviourTagName: 'store-nudges', exposureRule: { ctasResetAt: [{ ctaId, resetAt: 'then' }] } }],
    };
    expect(await api.post('/cta/state-machines/snapshot/delta', body, headers)).toMatchObject({
      status: 400,
      body: errorBody(
        'INVALID_REQUEST',
        'invalid request: ctas[0].activeStateMachines.m1.currentState must be a string; ' +
          'ctas[1].ctaId must be a CTA id (an integer, or its decimal string); ' +
          'ctas[1].activeStateMachines.m3.createdAt must be an integer (epoch milliseconds); ' +
          'ctas[1].resetAt[1] must be an integer (epoch milliseconds); ' +
          'behaviourTags[0].exposureRule.ctasResetAt[0].resetAt must be an integer (epoch milliseconds)',
      ),
    });
    const launch = await api.post('/cta/active/state-machines', undefined, headers);
    expect(launch.body.data.ctas[0].activeStateMachines).toEqual({});
  });
});
