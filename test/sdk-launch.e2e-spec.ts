import { AdminClient } from './admin-client';
import { examples, machine, runClockAfterExamples } from './fixtures';
import { DataSource } from 'typeorm';
import { MAX_READ_BATCH } from '../src/common/read-batcher';
import { UserStateStore } from '../src/sdk/user-state.store';
import type { SnapshotRequestDto } from '../src/sdk/dto/snapshot-request.dto';
import { eachDatabase, errorBody, TestApp } from './harness';
import { type Launch, SdkClient } from './sdk-client';

const LAUNCH = '/cta/active/state-machines/';
const EMPTY = { data: { ctas: [], behaviourTags: [] } };
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

eachDatabase('SDK launch', (database) => {
  let api: TestApp;
  let tenantCount = 0;
  /** A fresh tenant per test, so catalogues never mix. */
  const tenant = () => new AdminClient(api, `launch-${++tenantCount}`);
  /** The device of `userId`; an apiVersion of null sends no api_version. */
  const device = (tenantId: string, userId: string, apiVersion: string | null = '1') =>
    new SdkClient(api, tenantId, userId, { headers: { api_version: apiVersion ?? undefined } });
  const launch = (tenantId: string, userId: string, body?: SnapshotRequestDto, apiVersion: string | null = '1') =>
    device(tenantId, userId, apiVersion).launch(body);
  const delta = (tenantId: string, userId: string, body: SnapshotRequestDto) => device(tenantId, userId).delta(body);
  const ctaIds = (response: { body: { data: Launch } }): string[] => response.body.data.ctas.map((cta) => cta.ctaId);

  beforeAll(async () => {
    api = await TestApp.start(database);
    runClockAfterExamples(api);
  });
  afterAll(() => api.close());

  it('answers the example launch after the example delta: reset machine gone, ids as strings, both frequency keys', async () => {
    const catalogue = tenant();
    const id = await catalogue.exampleCta();
    expect(await delta(catalogue.tenantId, '42', examples.delta(id))).toMatchObject({ status: 200, body: { data: true } });

    const response = await launch(catalogue.tenantId, '42');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toEqual(examples.launch(id));
    const [cta] = response.body.data.ctas;
    expect(Object.keys(cta)).toEqual(['ctaId', 'rule', 'activeStateMachines', 'resetAt', 'actionDoneAt', 'behaviourTagName']);
    expect(cta.rule).not.toHaveProperty('cohortEligibility');
    expect(cta.rule.frequency.lifespan).toEqual(cta.rule.frequency.lifeSpan);
    expect(Object.keys(response.body.data.behaviourTags[0])).toEqual(['behaviourTagName', 'exposureRule', 'ctaRelation']);
    expect(Object.keys(response.body.data.behaviourTags[0].ctaRelation)).toEqual(['shownCta', 'hideCta', 'activeCtas']);
  });

  it('merges the snapshots of the launch body first, like the delta', async () => {
    const catalogue = tenant();
    const id = await catalogue.exampleCta();
    expect((await launch(catalogue.tenantId, '42', examples.delta(id))).body).toEqual(examples.launch(id));
    expect((await launch(catalogue.tenantId, '42')).body).toEqual(examples.launch(id));
  });

  it.each([
    ['absent', null],
    ['0', '0'],
    ['not a number', 'one'],
  ])('answers null lists and merges nothing when api_version is %s', async (_case, apiVersion) => {
    const catalogue = tenant();
    const id = await catalogue.cta();
    const response = await launch(catalogue.tenantId, '7', examples.delta(id), apiVersion);
    expect(response).toMatchObject({ status: 200, body: { data: { ctas: null, behaviourTags: null } } });
    const [cta] = (await launch(catalogue.tenantId, '7')).body.data.ctas;
    expect(cta.activeStateMachines).toEqual({});
    expect(cta.resetAt).toEqual([]);
  });

  it('answers [] for both lists, never null, when nothing is eligible', async () => {
    const catalogue = tenant();
    expect((await launch(catalogue.tenantId, '1')).body).toEqual(EMPTY);
    await catalogue.cta({ actions: [] });
    const response = await launch(catalogue.tenantId, '1');
    expect(response.body).toEqual(EMPTY);
  });

  it('gives a user without state empty state, and tags with empty user lists', async () => {
    const catalogue = tenant();
    const id = await catalogue.cta({ actions: [] });
    await catalogue.tag('tag-a', [id]);
    await catalogue.move(id, 'live');
    const { ctas, behaviourTags } = (await launch(catalogue.tenantId, '-9223372036854775808')).body.data;
    expect(ctas[0]).toMatchObject({ ctaId: id, activeStateMachines: {}, resetAt: [], actionDoneAt: [], behaviourTagName: 'tag-a' });
    expect(behaviourTags).toEqual([
      {
        behaviourTagName: 'tag-a',
        exposureRule: { ...examples.tag.exposureRule, ctasResetAt: [] },
        ctaRelation: { shownCta: { rule: 'ANY', ctaList: [] }, hideCta: { rule: 'REST', ctaList: [] }, activeCtas: [] },
      },
    ]);
  });

  it('orders by priority descending, then by id ascending', async () => {
    const catalogue = tenant();
    const low = await catalogue.cta({ rule: { priority: 1 } });
    const highA = await catalogue.cta({ rule: { priority: 9 } });
    const highB = await catalogue.cta({ rule: { priority: 9 } });
    const middle = await catalogue.cta({ rule: { priority: 5 } });
    expect(ctaIds(await launch(catalogue.tenantId, '1'))).toEqual([highA, highB, middle, low]);
  });

  it('serves only live CTAs and scheduled ones whose start has passed, never past their end, without waiting for the job', async () => {
    const catalogue = tenant();
    const now = api.clock.now();
    const live = await catalogue.cta({ rule: { priority: 4 } });
    await catalogue.cta({ actions: [] });
    await catalogue.cta({ actions: ['live', 'pause'] });
    await catalogue.cta({ actions: ['live', 'conclude'] });
    const scheduled = await catalogue.cta({ startTime: now + 5 * MINUTE, rule: { priority: 3 }, actions: ['schedule'] });
    const ending = await catalogue.cta({ endTime: now + 10 * MINUTE, rule: { priority: 2 } });
    expect(ctaIds(await launch(catalogue.tenantId, '1'))).toEqual([live, ending]);
    const [, endingCta] = (await launch(catalogue.tenantId, '1')).body.data.ctas;
    expect(endingCta.rule.ctaValidTill).toBe(now + 10 * MINUTE);

    api.clock.advance(5 * MINUTE);
    expect(ctaIds(await launch(catalogue.tenantId, '1'))).toEqual([live, scheduled, ending]);
    api.clock.advance(5 * MINUTE);
    expect(ctaIds(await launch(catalogue.tenantId, '1'))).toEqual([live, scheduled]);
  });

  it('evaluates cohort eligibility with the default provider (every user is in "all")', async () => {
    const catalogue = tenant();
    const everyone = await catalogue.cta();
    await catalogue.cta({ rule: { cohortEligibility: { includes: ['beta_testers'], excludes: [] } } });
    await catalogue.cta({ rule: { cohortEligibility: { includes: ['all'], excludes: ['all'] } } });
    const either = await catalogue.cta({ rule: { cohortEligibility: { includes: ['beta_testers', 'all'], excludes: ['paying_users'] } } });
    expect(ctaIds(await launch(catalogue.tenantId, '1'))).toEqual([everyone, either]);
  });

  it('serves a test CTA only to its users, regardless of cohorts, until it expires', async () => {
    const catalogue = tenant();
    const live = await catalogue.cta({ rule: { priority: 1 } });
    const testCta = await catalogue.testCta([42, -7], 30, { priority: 2, cohortEligibility: { includes: ['nobody'], excludes: ['all'] } });
    expect(ctaIds(await launch(catalogue.tenantId, '42'))).toEqual([testCta, live]);
    expect(ctaIds(await launch(catalogue.tenantId, '-7'))).toEqual([testCta, live]);
    expect(ctaIds(await launch(catalogue.tenantId, '43'))).toEqual([live]);
    const [served] = (await launch(catalogue.tenantId, '42')).body.data.ctas;
    expect(served.rule.ctaValidTill).toBeGreaterThan(api.clock.now());

    api.clock.advance(30 * MINUTE);
    expect(ctaIds(await launch(catalogue.tenantId, '42'))).toEqual([live]);
  });

  it('drops state machines whose createdAt + stateMachineTTL has passed', async () => {
    const catalogue = tenant();
    const id = await catalogue.cta({ rule: { stateMachineTTL: DAY } });
    const now = api.clock.now();
    await delta(catalogue.tenantId, '5', {
      ctas: [{ ctaId: id, activeStateMachines: { old: machine('1', now - DAY), young: machine('1', now - DAY + MINUTE) } }],
    });
    expect(Object.keys((await launch(catalogue.tenantId, '5')).body.data.ctas[0].activeStateMachines)).toEqual(['young']);
    api.clock.advance(MINUTE);
    expect((await launch(catalogue.tenantId, '5')).body.data.ctas[0].activeStateMachines).toEqual({});
  });

  it('keeps the state of a paused CTA for when it resumes, and drops the state of CTAs neither live nor paused', async () => {
    const catalogue = tenant();
    const id = await catalogue.cta();
    const now = api.clock.now();
    await delta(catalogue.tenantId, '5', { ctas: [{ ctaId: id, activeStateMachines: { k: machine('1', now) }, resetAt: [now] }] });
    await catalogue.move(id, 'pause');
    expect((await launch(catalogue.tenantId, '5')).body).toEqual(EMPTY);
    await catalogue.move(id, 'live');
    expect((await launch(catalogue.tenantId, '5')).body.data.ctas[0]).toMatchObject({
      activeStateMachines: { k: machine('1', now) },
      resetAt: [now],
    });

    // Paused, then scheduled for later: neither live nor paused, so its users' state goes.
    await catalogue.move(id, 'pause');
    await catalogue.edit(id, { startTime: now + 2 * MINUTE });
    await catalogue.move(id, 'schedule');
    expect((await launch(catalogue.tenantId, '5')).body).toEqual(EMPTY);
    api.clock.advance(2 * MINUTE);
    expect((await launch(catalogue.tenantId, '5')).body.data.ctas[0]).toMatchObject({ ctaId: id, activeStateMachines: {}, resetAt: [] });
  });

  it('stops serving a paused CTA on the very next launch, and shows a new tag link at once', async () => {
    const catalogue = tenant();
    const first = await catalogue.cta({ rule: { priority: 2 } });
    const second = await catalogue.cta({ rule: { priority: 1 } });
    await catalogue.tag('tag-a', []);
    await catalogue.tag('tag-b', []);
    expect(ctaIds(await launch(catalogue.tenantId, '1'))).toEqual([first, second]);
    await catalogue.move(first, 'pause');
    expect(ctaIds(await launch(catalogue.tenantId, '1'))).toEqual([second]);

    await catalogue.updateTag('tag-b', [first]);
    await catalogue.move(first, 'live');
    const response = await launch(catalogue.tenantId, '1');
    expect(response.body.data.ctas.map((cta: { behaviourTagName: string | null }) => cta.behaviourTagName)).toEqual(['tag-b', null]);
    expect(response.body.data.behaviourTags.map((tag: { behaviourTagName: string }) => tag.behaviourTagName)).toEqual(['tag-b']);
  });

  it("sees another instance's change through the tenant revision within CACHE_REVALIDATE_MS", async () => {
    const catalogue = tenant();
    const id = await catalogue.cta();
    expect(ctaIds(await launch(catalogue.tenantId, '1'))).toEqual([id]);
    // What another instance's pause leaves in the database: the status and a bumped revision, no local notice.
    const dataSource = api.service(DataSource);
    await dataSource.query(`UPDATE ctas SET status = 'paused' WHERE tenant_id = ? AND id = ?`, [catalogue.tenantId, Number(id)]);
    await dataSource.query('UPDATE catalogue_revisions SET revision = revision + 1 WHERE tenant_id = ?', [catalogue.tenantId]);
    expect(ctaIds(await launch(catalogue.tenantId, '1'))).toEqual([id]);
    api.clock.advance(1000);
    expect(ctaIds(await launch(catalogue.tenantId, '1'))).toEqual([]);
  });

  it('keeps users and tenants apart', async () => {
    const one = tenant();
    const two = tenant();
    const idOne = await one.cta();
    const idTwo = await two.cta();
    const now = api.clock.now();
    await delta(one.tenantId, '77', { ctas: [{ ctaId: idOne, activeStateMachines: { k: machine('1', now) } }] });
    // The same user in another tenant, and a CTA id of another tenant, are strangers.
    await delta(two.tenantId, '77', { ctas: [{ ctaId: idOne, activeStateMachines: { k: machine('9', now) } }] });
    expect(ctaIds(await launch(one.tenantId, '77'))).toEqual([idOne]);
    expect(ctaIds(await launch(two.tenantId, '77'))).toEqual([idTwo]);
    expect((await launch(one.tenantId, '77')).body.data.ctas[0].activeStateMachines).toEqual({ k: machine('1', now) });
    expect((await launch(one.tenantId, '78')).body.data.ctas[0].activeStateMachines).toEqual({});
    expect((await launch(two.tenantId, '77')).body.data.ctas[0].activeStateMachines).toEqual({});
  });

  it('gives each user its own state when concurrent launches are read in batches', async () => {
    const tenants = [tenant(), tenant()];
    const ids = await Promise.all(tenants.map((catalogue) => catalogue.cta()));
    const now = api.clock.now();
    // 40 users a tenant: more than one batch (MAX_READ_BATCH); every fifth user has no state.
    const users = Array.from({ length: 40 }, (_, index) => String(1000 + index));
    const hasState = (index: number) => index % 5 !== 0;
    for (const [t, catalogue] of tenants.entries()) {
      for (const [index, user] of users.entries()) {
        if (hasState(index)) {
          await delta(catalogue.tenantId, user, { ctas: [{ ctaId: ids[t], activeStateMachines: { k: machine(`${t}-${index}`, now) } }] });
        }
      }
    }
    const store = api.service(UserStateStore);
    const readMany = jest.spyOn(store as unknown as { readMany: (tenantId: string, userIds: string[]) => Promise<unknown[]> }, 'readMany');
    try {
      const launches = tenants.flatMap((catalogue, t) =>
        users.map((user, index) => ({ t, index, response: launch(catalogue.tenantId, user) })),
      );
      for (const { t, index, response } of launches) {
        const machines = (await response).body.data.ctas[0].activeStateMachines;
        expect({ t, index, machines }).toEqual({ t, index, machines: hasState(index) ? { k: machine(`${t}-${index}`, now) } : {} });
      }
      const batchSizes = readMany.mock.calls.map(([, userIds]) => userIds.length);
      expect(Math.max(...batchSizes)).toBeGreaterThan(1);
      expect(Math.max(...batchSizes)).toBeLessThanOrEqual(MAX_READ_BATCH);
      expect(batchSizes.reduce((sum, size) => sum + size, 0)).toBe(80);
    } finally {
      readMany.mockRestore();
    }
  });

  it('reads the client headers as existing SDKs send them', async () => {
    const catalogue = tenant();
    const id = await catalogue.cta();
    const response = await api.post(LAUNCH, undefined, {
      'x-tenant-id': catalogue.tenantId,
      'auth-userid': '9223372036854775807',
      'api-version': '2',
    });
    expect(ctaIds(response)).toEqual([id]);
  });

  it.each([
    ['missing', {}],
    ['not an integer', { 'auth-userid': '12abc' }],
    ['beyond a signed 64-bit long', { 'auth-userid': '9223372036854775808' }],
  ])('rejects an auth-userid that is %s', async (_case, headers) => {
    const response = await api.post(LAUNCH, undefined, { api_version: '1', ...headers });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(errorBody('INVALID_REQUEST'));
  });

  it('rejects a malformed body with INVALID_REQUEST "invalid request" and stores nothing', async () => {
    const catalogue = tenant();
    const id = await catalogue.cta();
    const body = examples.delta(id);
    body.ctas[0].activeStateMachines['store-77'].lastTransitionAt = '1795372967296';
    const response = await launch(catalogue.tenantId, '42', body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(errorBody('INVALID_REQUEST', expect.stringMatching(/^invalid request: \S/)));
    expect((await launch(catalogue.tenantId, '42')).body.data.ctas[0].activeStateMachines).toEqual({});
    expect((await device(catalogue.tenantId, '42').raw('POST', '/active/state-machines/', { body: '{"ctas": [' })).body).toEqual(
      errorBody('INVALID_REQUEST'),
    );
  });
});
