import { ctaBody, machine } from './fixtures';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import { Clock, CtaEntity, MAX_JSON_DEPTH, ORCHESTRATION_MIGRATIONS } from 'cta-orchestration-service';
import type { DataSource } from 'typeorm';
import { ADMIN_KEY_HEADER, GATEWAY_OPERATOR } from '../examples/gateway/src/admin-key.guard';
import { configureGateway, createGatewayAdapter, GATEWAY_APPLICATION_OPTIONS } from '../examples/gateway/src/gateway-app';
import { GATEWAY_CONNECTION } from '../examples/gateway/src/gateway-config';
import { GatewayModule } from '../examples/gateway/src/gateway.module';
import { CreatePremiumMembers1767300000000 } from '../examples/gateway/src/migrations/1767300000000-CreatePremiumMembers';
import { PREMIUM_COHORT } from '../examples/gateway/src/premium-cohort.provider';
import { PremiumMemberEntity } from '../examples/gateway/src/premium-member.entity';
import { createDatabase, eachDatabase, errorBody, TestApp } from './harness';
import { TestClock } from './test-clock';

const ADMIN_KEY = 'gateway-secret';
const ADMIN = '/api/thunder';
const LAUNCH = '/api/cta/active/state-machines/';
const DELTA = '/api/cta/state-machines/snapshot/delta/';

/** The example gateway (examples/gateway) booted as its main.ts does, on a fresh database. */
async function startGateway(database: 'sqlite' | 'mysql'): Promise<TestApp> {
  const { url, drop } = await createDatabase(database);
  const clock = new TestClock();
  const moduleRef = await Test.createTestingModule({ imports: [GatewayModule.forRoot({ databaseUrl: url, adminKey: ADMIN_KEY })] })
    .overrideProvider(Clock)
    .useValue(clock)
    .compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(createGatewayAdapter(), {
    ...GATEWAY_APPLICATION_OPTIONS,
    logger: false,
  });
  configureGateway(app);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return new TestApp(app, clock, database, drop);
}

eachDatabase('Example gateway hosting the module', (database) => {
  let api: TestApp;
  let tenantCount = 0;
  let tenantId: string;
  const admin = (extra: Record<string, string> = {}) => ({
    'x-tenant-id': tenantId,
    user: 'ops@example.com',
    [ADMIN_KEY_HEADER]: ADMIN_KEY,
    ...extra,
  });
  const sdk = (userId: string) => ({
    'x-tenant-id': tenantId,
    'auth-userid': userId,
    api_version: '1',
    app_version: '5.2.0',
    package_name: 'com.example.app',
  });
  const gatewayDataSource = () => api.app.get<DataSource>(getDataSourceToken(GATEWAY_CONNECTION));

  /** A live CTA made through the gateway's admin routes; answers its id. */
  async function liveCta(cohortEligibility: { includes: string[]; excludes: string[] }): Promise<string> {
    const created = await api.post(`${ADMIN}/ctas/`, ctaBody({ rule: { ...ctaBody().rule, cohortEligibility } }), admin());
    expect(created).toMatchObject({ status: 200, body: { data: expect.any(Number) } });
    const id = String(created.body.data);
    expect(await api.put(`${ADMIN}/ctas/${id}/live`, undefined, admin())).toMatchObject({ status: 200, body: {} });
    return id;
  }

  const launchedIds = async (userId: string): Promise<string[]> => {
    const launch = await api.post(LAUNCH, undefined, sdk(userId));
    expect(launch.status).toBe(200);
    return launch.body.data.ctas.map((cta: { ctaId: string }) => cta.ctaId).sort();
  };

  beforeAll(async () => {
    api = await startGateway(database);
  });
  afterAll(() => api.close());
  beforeEach(() => {
    tenantId = `gateway-${++tenantCount}`;
  });

  it('runs its migrations with the gateway’s on the gateway’s one named connection', async () => {
    const dataSource = gatewayDataSource();
    const applied = (await dataSource.query('SELECT name FROM migrations')).map((row: { name: string }) => row.name);
    expect(applied.sort()).toEqual(
      [...ORCHESTRATION_MIGRATIONS, CreatePremiumMembers1767300000000].map((migration) => migration.name).sort(),
    );
    expect(dataSource.hasMetadata(CtaEntity)).toBe(true);
    // No default connection was opened behind the gateway's back.
    expect(() => api.app.get(getDataSourceToken())).toThrow();
  });

  it('round-trips create → live → launch → delta through the gateway’s prefixes', async () => {
    const id = await liveCta({ includes: ['all'], excludes: [] });
    const now = Date.now();
    const stored = machine('1', now, { context: { storeId: 'store-1' } });

    const first = await api.post(LAUNCH, undefined, sdk('42'));
    expect(first.status).toBe(200);
    expect(first.body.data.ctas).toEqual([expect.objectContaining({ ctaId: id, activeStateMachines: {}, resetAt: [], actionDoneAt: [] })]);

    const delta = await api.post(
      DELTA,
      { ctas: [{ ctaId: id, activeStateMachines: { 'store-1': stored }, resetAt: [], actionDoneAt: [now] }] },
      sdk('42'),
    );
    expect(delta).toMatchObject({ status: 200, body: { data: true } });

    const second = await api.post(LAUNCH, undefined, sdk('42'));
    expect(second.body.data.ctas).toEqual([
      expect.objectContaining({ ctaId: id, activeStateMachines: { 'store-1': stored }, actionDoneAt: [now] }),
    ]);
    // Another user's state is their own.
    expect((await api.post(LAUNCH, undefined, sdk('43'))).body.data.ctas[0].activeStateMachines).toEqual({});
  });

  it('guards the admin routes with the gateway’s guard and leaves the SDK routes to its own rules', async () => {
    const missing = await api.post(`${ADMIN}/ctas/`, ctaBody(), { 'x-tenant-id': tenantId, user: 'ops@example.com' });
    expect(missing).toMatchObject({ status: 401, body: errorBody('UNAUTHORIZED', `the gateway's ${ADMIN_KEY_HEADER} header is required`) });
    const wrong = await api.get(`${ADMIN}/ctas/`, admin({ [ADMIN_KEY_HEADER]: 'guess' }));
    expect(wrong).toMatchObject({ status: 401, body: errorBody('UNAUTHORIZED') });
    expect((await api.get(`${ADMIN}/ctas/`, admin())).status).toBe(200);
    expect((await api.post(LAUNCH, undefined, sdk('1'))).status).toBe(200);
  });

  it('records the operator the gateway’s guard names as the actor of the audit history', async () => {
    const id = await liveCta({ includes: ['all'], excludes: [] });
    const history = await api.get(`${ADMIN}/ctas/${id}/history`, admin());
    expect(history.body.data.entries.map((entry: { action: string; actor: string }) => [entry.action, entry.actor])).toEqual([
      ['live', GATEWAY_OPERATOR],
      ['create', GATEWAY_OPERATOR],
    ]);
  });

  it('answers the module’s error envelope on its routes without a global filter in the gateway', async () => {
    const response = await api.put(`${ADMIN}/ctas/abc/live`, undefined, admin());
    expect(response).toMatchObject({ status: 400, body: errorBody('CTA_ID_INVALID') });
  });

  it('reads JSON bodies with the module’s parser: too deep or malformed answers the standalone app’s 400 envelope', async () => {
    const nestedText = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const tooDeep = `{"ctas":${nestedText(MAX_JSON_DEPTH)}}`;
    for (const [path, headers] of [
      [`${ADMIN}/ctas/`, admin()],
      [DELTA, sdk('42')],
    ] as const) {
      expect(await api.post(path, tooDeep, headers)).toMatchObject({
        status: 400,
        body: errorBody('INVALID_REQUEST', `the JSON body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`),
      });
      expect(await api.post(path, '{"ctas": [', headers)).toMatchObject({ status: 400, body: errorBody('INVALID_REQUEST') });
    }
    // An empty JSON body reads as none.
    const launch = await api.request('POST', LAUNCH, { body: '', headers: { ...sdk('42'), 'content-type': 'application/json' } });
    expect(launch.status).toBe(200);
  });

  it('serves the operator view under the gateway’s admin prefix, without a key; whoami names the gateway’s operator', async () => {
    const page = await api.app.inject({ method: 'GET', url: `${ADMIN}/ui/` });
    expect({ status: page.statusCode, type: page.headers['content-type'] }).toEqual({ status: 200, type: 'text/html; charset=utf-8' });
    const whoami = await api.get(`${ADMIN}/whoami`, admin());
    // The gateway's guard names no role: every write is offered, and the API decides.
    expect(whoami.body.data).toMatchObject({ name: GATEWAY_OPERATOR, role: null, may: { approve: true, eraseUser: true } });
    expect((await api.get(`${ADMIN}/whoami`, { 'x-tenant-id': tenantId })).status).toBe(401);
  });

  it('serves only under the gateway’s prefixes, not the standalone ones', async () => {
    for (const path of ['/engine/ctas/', '/api/engine/ctas/', '/thunder/ctas/', '/cta/active/state-machines/']) {
      expect({ path, status: (await api.get(path, admin())).status }).toEqual({ path, status: 404 });
    }
  });

  it('asks the gateway’s cohort provider which CTAs each user may see', async () => {
    const everyone = await liveCta({ includes: ['all'], excludes: [] });
    const premiumOnly = await liveCta({ includes: [PREMIUM_COHORT], excludes: [] });
    const freeOnly = await liveCta({ includes: ['all'], excludes: [PREMIUM_COHORT] });
    await gatewayDataSource().getRepository(PremiumMemberEntity).insert({ tenantId, userId: '8' });

    expect(await launchedIds('7')).toEqual([everyone, freeOnly].sort());
    expect(await launchedIds('8')).toEqual([everyone, premiumOnly].sort());
  });

  it('joins the provider’s cohorts with its own static and rule cohorts, and takes CSV uploads', async () => {
    expect((await api.post(`${ADMIN}/cohorts`, { name: 'testers', kind: 'static' }, admin())).status).toBe(200);
    const upload = await api.request('PUT', `${ADMIN}/cohorts/testers/members`, {
      body: 'userId\n8\n9\n',
      headers: admin({ 'content-type': 'text/csv' }),
    });
    expect(upload.body).toEqual({ data: { added: 2, removed: 0, memberCount: 2 } });
    // The gateway's Fastify parses text/plain itself: the route reads that string.
    const plain = await api.request('POST', `${ADMIN}/cohorts/testers/members`, {
      body: '9\n10\n',
      headers: admin({ 'content-type': 'text/plain' }),
    });
    expect(plain.body).toEqual({ data: { added: 1, removed: 0, memberCount: 3 } });
    expect(
      (
        await api.post(
          `${ADMIN}/cohorts`,
          { name: 'app-5', kind: 'rule', rule: { all: [{ attribute: 'appVersion', op: 'semverGte', value: '5' }] } },
          admin(),
        )
      ).status,
    ).toBe(200);
    const premiumTesters = await liveCta({ includes: [PREMIUM_COHORT], excludes: ['testers'] });
    const testersOnApp5 = await liveCta({ includes: ['testers'], excludes: [PREMIUM_COHORT] });
    const app5 = await liveCta({ includes: ['app-5'], excludes: [] });
    await gatewayDataSource()
      .getRepository(PremiumMemberEntity)
      .insert([
        { tenantId, userId: '7' },
        { tenantId, userId: '8' },
      ]);

    expect(await launchedIds('7')).toEqual([premiumTesters, app5].sort());
    expect(await launchedIds('8')).toEqual([app5]);
    expect(await launchedIds('9')).toEqual([testersOnApp5, app5].sort());
    expect(await launchedIds('10')).toEqual([testersOnApp5, app5].sort());
  });
});
