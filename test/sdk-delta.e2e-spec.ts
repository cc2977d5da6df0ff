import { AdminClient } from './admin-client';
import { examples, machine, runClockAfterExamples, sdkHeaders } from './fixtures';
import { CatalogueCacheService } from '../src/sdk/catalogue-cache.service';
import { SdkStateService } from '../src/sdk/sdk-state.service';
import { parseSnapshotRequest } from '../src/sdk/snapshot-request';
import { UserStateStore } from '../src/sdk/user-state.store';
import { Clock } from '../src/common/clock';
import { MetricsService } from '../src/metrics/metrics.service';
import { UserCohortsService } from '../src/cohorts/user-cohorts.service';
import { ORCHESTRATION_SETTINGS, OrchestrationSettings } from '../src/orchestration-options';
import { eachDatabase, errorBody, TestApp } from './harness';

const LAUNCH = '/cta/active/state-machines/';
const DELTA = '/cta/state-machines/snapshot/delta/';
const MINUTE = 60_000;

eachDatabase('SDK snapshot delta', (database) => {
  let api: TestApp;
  let tenantCount = 0;
  const tenant = () => new AdminClient(api, `delta-${++tenantCount}`);
  const delta = (tenantId: string, userId: string, body: unknown, apiVersion: string | null = '1') =>
    api.post(DELTA, body, sdkHeaders(tenantId, userId, apiVersion));
  /** The user's stored state for one CTA, as the launch serves it. */
  const stateOf = async (tenantId: string, userId: string, ctaId: string) => {
    const response = await api.post(LAUNCH, undefined, sdkHeaders(tenantId, userId));
    return response.body.data.ctas.find((cta: { ctaId: string }) => cta.ctaId === ctaId);
  };
  const tagStateOf = async (tenantId: string, userId: string, name: string) => {
    const response = await api.post(LAUNCH, undefined, sdkHeaders(tenantId, userId));
    const tag = response.body.data.behaviourTags.find((entry: { behaviourTagName: string }) => entry.behaviourTagName === name);
    return { ctasResetAt: tag.exposureRule.ctasResetAt, activeCtas: tag.ctaRelation.activeCtas };
  };

  beforeAll(async () => {
    api = await TestApp.start(database);
    runClockAfterExamples(api);
  });
  afterAll(() => api.close());

  it('stores the example delta and answers data: true', async () => {
    const catalogue = tenant();
    const id = await catalogue.exampleCta();
    const response = await delta(catalogue.tenantId, '42', examples.delta(id));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: true });
    expect(await stateOf(catalogue.tenantId, '42', id)).toEqual(examples.launch(id).data.ctas[0]);
    expect(await tagStateOf(catalogue.tenantId, '42', examples.tag.behaviourTagName)).toEqual({
      ctasResetAt: [{ ctaId: id, resetAt: 1795371000000 }],
      activeCtas: [id],
    });
  });

  it.each([
    ['absent', null],
    ['0', '0'],
    ['negative', '-1'],
  ])('answers data: false and stores nothing when api_version is %s', async (_case, apiVersion) => {
    const catalogue = tenant();
    const id = await catalogue.cta();
    expect(await delta(catalogue.tenantId, '42', examples.delta(id), apiVersion)).toMatchObject({ status: 200, body: { data: false } });
    expect((await stateOf(catalogue.tenantId, '42', id)).activeStateMachines).toEqual({});
  });

  it.each([
    ['no body', undefined],
    ['an empty object', {}],
    ['empty lists', { ctas: [], behaviourTags: [] }],
  ])('answers data: true for %s', async (_case, body) => {
    expect(await delta('delta-empty', '1', body)).toMatchObject({ status: 200, body: { data: true } });
  });

  it('deletes reset machines; an equal or later lastTransitionAt wins; an older one is ignored', async () => {
    const catalogue = tenant();
    const id = await catalogue.cta();
    const t = api.clock.now() - MINUTE;
    await delta(catalogue.tenantId, '9', {
      ctas: [{ ctaId: id, activeStateMachines: { a: machine('1', t), b: machine('1', t), c: machine('1', t), d: machine('1', t) } }],
    });
    await delta(catalogue.tenantId, '9', {
      ctas: [
        {
          ctaId: Number(id),
          activeStateMachines: {
            a: { ...machine('3', t + 5), reset: true },
            b: machine('2', t),
            c: machine('2', t + 1),
            d: machine('2', t - 1),
            e: { ...machine('1', t), reset: false },
          },
        },
      ],
    });
    expect((await stateOf(catalogue.tenantId, '9', id)).activeStateMachines).toEqual({
      b: machine('2', t),
      c: machine('2', t + 1),
      d: machine('1', t),
      e: machine('1', t),
    });
  });

  it('replaces resetAt, actionDoneAt, activeCtas and ctasResetAt when present, keeps them when absent', async () => {
    const catalogue = tenant();
    const id = await catalogue.cta({ actions: [] });
    await catalogue.tag('tag-a', [id]);
    await catalogue.move(id, 'live');
    await delta(catalogue.tenantId, '9', {
      ctas: [{ ctaId: id, activeStateMachines: {}, resetAt: [1, 2], actionDoneAt: [3] }],
      behaviourTags: [
        { behaviourTagName: 'tag-a', exposureRule: { ctasResetAt: [{ ctaId: id, resetAt: 4 }] }, ctaRelation: { activeCtas: [id] } },
      ],
    });
    await delta(catalogue.tenantId, '9', {
      ctas: [{ ctaId: id, activeStateMachines: {}, resetAt: [5] }],
      behaviourTags: [{ behaviourTagName: 'tag-a', ctaRelation: { activeCtas: [] }, exposureRule: { session: { limit: 99 } } }],
    });
    expect(await stateOf(catalogue.tenantId, '9', id)).toMatchObject({ resetAt: [5], actionDoneAt: [3] });
    expect(await tagStateOf(catalogue.tenantId, '9', 'tag-a')).toEqual({ ctasResetAt: [{ ctaId: id, resetAt: 4 }], activeCtas: [] });
    const launch = await api.post(LAUNCH, undefined, sdkHeaders(catalogue.tenantId, '9'));
    expect(launch.body.data.behaviourTags[0].exposureRule.session).toEqual(examples.tag.exposureRule.session);
  });

  it('keeps the newest 1000 entries of each list', async () => {
    const catalogue = tenant();
    const id = await catalogue.cta({ actions: [] });
    await catalogue.tag('tag-a', [id]);
    await catalogue.move(id, 'live');
    const times = Array.from({ length: 1003 }, (_, index) => 1_000_000 + index);
    await delta(catalogue.tenantId, '9', {
      ctas: [{ ctaId: id, activeStateMachines: {}, resetAt: times, actionDoneAt: [...times].reverse() }],
      behaviourTags: [{ behaviourTagName: 'tag-a', exposureRule: { ctasResetAt: times.map((resetAt) => ({ ctaId: id, resetAt })) } }],
    });
    const state = await stateOf(catalogue.tenantId, '9', id);
    expect(state.resetAt).toEqual(times.slice(3));
    expect(state.actionDoneAt).toEqual(times.slice(3).reverse());
    const tagState = await tagStateOf(catalogue.tenantId, '9', 'tag-a');
    expect(tagState.ctasResetAt).toHaveLength(1000);
    expect(tagState.ctasResetAt[0].resetAt).toBe(1_000_003);
  });

  it('ignores snapshots of unknown CTAs and tags, and stores the rest', async () => {
    const catalogue = tenant();
    const id = await catalogue.cta();
    const t = api.clock.now();
    const response = await delta(catalogue.tenantId, '9', {
      ctas: [
        { ctaId: '999999', activeStateMachines: { k: machine('1', t) } },
        { ctaId: id, activeStateMachines: { k: machine('1', t) } },
      ],
      behaviourTags: [{ behaviourTagName: 'no-such-tag', ctaRelation: { activeCtas: [id] } }],
    });
    expect(response.body).toEqual({ data: true });
    expect((await stateOf(catalogue.tenantId, '9', id)).activeStateMachines).toEqual({ k: machine('1', t) });
  });

  it.each([
    ['a snapshot without ctaId', { ctas: [{ activeStateMachines: {} }] }],
    ['a snapshot without activeStateMachines', { ctas: [{ ctaId: '1' }] }],
    ['a machine without createdAt', { ctas: [{ ctaId: '1', activeStateMachines: { k: { currentState: '1', lastTransitionAt: 1 } } }] }],
    [
      'lastTransitionAt as a string',
      { ctas: [{ ctaId: '1', activeStateMachines: { k: { currentState: '1', lastTransitionAt: '1', createdAt: 1 } } }] },
    ],
    [
      'a numeric currentState',
      { ctas: [{ ctaId: '1', activeStateMachines: { k: { currentState: 1, lastTransitionAt: 1, createdAt: 1 } } }] },
    ],
    ['reset as a string', { ctas: [{ ctaId: '1', activeStateMachines: { k: { ...machine('1', 1), reset: 'true' } } }] }],
    ['resetAt with strings', { ctas: [{ ctaId: '1', activeStateMachines: {}, resetAt: ['1'] }] }],
    ['a tag without behaviourTagName', { behaviourTags: [{ ctaRelation: { activeCtas: [] } }] }],
    ['ctas as an object', { ctas: {} }],
    ['a JSON array body', []],
  ])('rejects %s with INVALID_REQUEST "invalid request"', async (_case, body) => {
    const response = await delta('delta-invalid', '9', body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(errorBody('INVALID_REQUEST', expect.stringMatching(/^invalid request: \S/)));
  });

  it('stores nothing of a body that is invalid anywhere', async () => {
    const catalogue = tenant();
    const id = await catalogue.cta();
    const t = api.clock.now();
    const response = await delta(catalogue.tenantId, '9', {
      ctas: [
        { ctaId: id, activeStateMachines: { k: machine('1', t) } },
        { ctaId: id, activeStateMachines: { j: { currentState: '1', createdAt: t } } },
      ],
    });
    expect(response.status).toBe(400);
    expect((await stateOf(catalogue.tenantId, '9', id)).activeStateMachines).toEqual({});
  });

  it('rejects a missing auth-userid and malformed JSON', async () => {
    expect(await api.post(DELTA, {}, { api_version: '1' })).toMatchObject({ status: 400, body: errorBody('INVALID_REQUEST') });
    expect(await api.post(DELTA, '{"ctas": [', sdkHeaders('t', '1'))).toMatchObject({ status: 400, body: errorBody('INVALID_REQUEST') });
  });

  it('keeps users and tenants apart', async () => {
    const one = tenant();
    const two = tenant();
    const idOne = await one.cta();
    const idTwo = await two.cta();
    const t = api.clock.now();
    await delta(one.tenantId, '5', { ctas: [{ ctaId: idOne, activeStateMachines: { k: machine('1', t) } }] });
    await delta(two.tenantId, '5', { ctas: [{ ctaId: idTwo, activeStateMachines: { k: machine('2', t) } }] });
    expect((await stateOf(one.tenantId, '5', idOne)).activeStateMachines).toEqual({ k: machine('1', t) });
    expect((await stateOf(two.tenantId, '5', idTwo)).activeStateMachines).toEqual({ k: machine('2', t) });
    expect((await stateOf(one.tenantId, '6', idOne)).activeStateMachines).toEqual({});
  });

  it('loses none of 60 concurrent merges for one user, each touching a different state machine', async () => {
    const catalogue = tenant();
    const id = await catalogue.cta();
    const t = api.clock.now();
    const keys = Array.from({ length: 60 }, (_, index) => `machine-${index}`);
    const responses = await Promise.all(
      keys.map((key) =>
        delta(catalogue.tenantId, '1234567890123456789', { ctas: [{ ctaId: id, activeStateMachines: { [key]: machine('1', t) } }] }),
      ),
    );
    expect(responses.every((response) => response.status === 200 && response.body.data === true)).toBe(true);
    expect(Object.keys((await stateOf(catalogue.tenantId, '1234567890123456789', id)).activeStateMachines).sort()).toEqual(
      [...keys].sort(),
    );
  });

  it('loses none of 50 merges racing from two instances (the database version check, not the in-process queue)', async () => {
    const catalogue = tenant();
    const id = await catalogue.cta();
    const t = api.clock.now();
    // A second service on the same database, with its own queue: as another instance of the service would be.
    const otherInstance = new SdkStateService(
      api.service(CatalogueCacheService),
      api.service(UserStateStore),
      api.service(Clock),
      api.service(MetricsService),
      api.service(UserCohortsService),
      api.app.get<OrchestrationSettings>(ORCHESTRATION_SETTINGS, { strict: false }),
    );
    const instances = [api.service(SdkStateService), otherInstance];
    const keys = Array.from({ length: 50 }, (_, index) => `machine-${index}`);
    await Promise.all(
      keys.map((key, index) =>
        instances[index % 2].mergeDelta(
          catalogue.tenantId,
          '77',
          parseSnapshotRequest({ ctas: [{ ctaId: id, activeStateMachines: { [key]: machine('1', t) } }] }),
        ),
      ),
    );
    expect(Object.keys((await stateOf(catalogue.tenantId, '77', id)).activeStateMachines).sort()).toEqual([...keys].sort());
  });

  it('serves a document stored before the launch index, and stores the index with the next write (docs/decisions/0006-user-state-merge.md)', async () => {
    const catalogue = tenant();
    const id = await catalogue.cta();
    const now = api.clock.now();
    const old = machine('1', now, { createdAt: now });
    const before = `{"ctas":[["${id}",{"activeStateMachines":[["old",${JSON.stringify(old)}]],"resetAt":[${now}],"actionDoneAt":[]}]],"tags":[]}`;
    const store = api.service(UserStateStore);
    expect(await store.write(catalogue.tenantId, '5', before, undefined, now)).toBe(true);
    expect(await stateOf(catalogue.tenantId, '5', id)).toMatchObject({ activeStateMachines: { old }, resetAt: [now], actionDoneAt: [] });
    // The launch stored nothing (nothing to prune): the document is as it was.
    expect((await store.read(catalogue.tenantId, '5'))!.json).toBe(before);
    const added = machine('2', now, { createdAt: now });
    expect((await delta(catalogue.tenantId, '5', { ctas: [{ ctaId: id, activeStateMachines: { added } }] })).status).toBe(200);
    expect((await store.read(catalogue.tenantId, '5'))!.json).toMatch(/^\{"launch":"\d+,2,\d+,\d+,\d+,\d+,\d+","ctas":/);
    expect((await stateOf(catalogue.tenantId, '5', id)).activeStateMachines).toEqual({ old, added });
  });

  it('refuses a write based on a version another writer has moved past', async () => {
    const store = api.service(UserStateStore);
    const now = api.clock.now();
    expect(await store.write('delta-store', '1', '{"ctas":[],"tags":[]}', undefined, now)).toBe(true);
    expect(await store.write('delta-store', '1', '{"ctas":[],"tags":[]}', undefined, now)).toBe(false);
    const read = await store.read('delta-store', '1');
    expect(await store.write('delta-store', '1', '{"ctas":[],"tags":[["a",{"activeCtas":[],"ctasResetAt":[]}]]}', read!.version, now)).toBe(
      true,
    );
    expect(await store.write('delta-store', '1', '{"ctas":[],"tags":[]}', read!.version, now)).toBe(false);
    expect((await store.read('delta-store', '1'))!.json).toContain('"a"');
  });
});
