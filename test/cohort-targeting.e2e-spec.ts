import { AdminClient, type MemberUpload } from './admin-client';
import { runClockAfterExamples } from './fixtures';
import { bucketOf } from '../src/cohorts/cohort-rule';
import type { CreateCohortDto, UpdateCohortDto } from '../src/cohorts/dto/cohort-body.dto';
import { eachDatabase, TestApp } from './harness';
import { SdkClient, type SdkHeaders } from './sdk-client';

type ClientAttributes = Pick<SdkHeaders, 'app_version' | 'package_name' | 'hotpatch_version' | 'codepush_version'>;

eachDatabase('Cohort targeting at launch', (database) => {
  let api: TestApp;
  let tenantCount = 0;

  const tenant = () => {
    const catalogue = new AdminClient(api, `targeting-${++tenantCount}`);
    return {
      catalogue,
      tenantId: catalogue.tenantId,
      async cohort(body: CreateCohortDto): Promise<void> {
        const response = await catalogue.cohorts.create(body);
        expect(response.status).toBe(200);
      },
      async members(method: 'POST' | 'PUT' | 'DELETE', name: string, upload: MemberUpload) {
        const response = await catalogue.cohorts.members(method, name, upload);
        expect(response.status).toBe(200);
        return response.body.data;
      },
      updateCohort: (name: string, body: UpdateCohortDto) => catalogue.cohorts.update(name, body),
      /** A live CTA for `includes` minus `excludes`. */
      cta: (includes: string[], excludes: string[] = []) => catalogue.cta({ rule: { cohortEligibility: { includes, excludes } } }),
    };
  };

  /** A device sending exactly the client attributes given (none of the fixtures' defaults). */
  const device = (tenantId: string, userId: string, client: ClientAttributes = {}): SdkClient =>
    new SdkClient(api, tenantId, userId, {
      headers: { app_version: undefined, package_name: undefined, codepush_version: undefined, ...client },
    });
  const launched = async (tenantId: string, userId: string, client: ClientAttributes = {}): Promise<string[]> => {
    const response = await device(tenantId, userId, client).launch();
    expect(response.status).toBe(200);
    return response.body.data.ctas.map((cta: { ctaId: string }) => cta.ctaId).sort((a: string, b: string) => Number(a) - Number(b));
  };

  beforeAll(async () => {
    api = await TestApp.start(database);
    runClockAfterExamples(api);
  });
  afterAll(() => api.close());

  it('serves a CTA to the uploaded users it includes, minus those of the cohort it excludes', async () => {
    const t = tenant();
    await t.cohort({ name: 'beta', kind: 'static' });
    await t.cohort({ name: 'blocked', kind: 'static' });
    await t.members('PUT', 'beta', 'userId\n1\n2\n3\n-4\n');
    await t.members('PUT', 'blocked', { userIds: [3] });
    const beta = await t.cta(['beta'], ['blocked']);
    const everyone = await t.cta(['all']);

    for (const [userId, expected] of [
      ['1', [everyone, beta]],
      ['-4', [everyone, beta]],
      ['3', [everyone]],
      ['5', [everyone]],
    ] as const) {
      expect({ userId, ctas: await launched(t.tenantId, userId) }).toEqual({
        userId,
        ctas: [...expected].sort((a, b) => Number(a) - Number(b)),
      });
    }

    // Membership changes show at the next launch.
    await t.members('POST', 'beta', { userIds: [5] });
    await t.members('DELETE', 'beta', { userIds: [1] });
    expect(await launched(t.tenantId, '5')).toEqual([everyone, beta].sort((a, b) => Number(a) - Number(b)));
    expect(await launched(t.tenantId, '1')).toEqual([everyone]);
  });

  it('serves "app version below 5.2" to exactly those launches, reading app_version', async () => {
    const t = tenant();
    await t.cohort({ name: 'below-5.2', kind: 'rule', rule: { all: [{ attribute: 'appVersion', op: 'semverLt', value: '5.2' }] } });
    const old = await t.cta(['below-5.2']);
    for (const [appVersion, served] of [
      ['5.1.9', true],
      ['5.1', true],
      ['4', true],
      ['v5.0.3', true],
      ['5.2', false],
      ['5.2.0', false],
      ['5.10.0', false],
      ['6.0.0-beta.1', false],
      ['not a version', false],
      [undefined, false],
    ] as const) {
      const ctas = await launched(t.tenantId, '1', appVersion === undefined ? {} : { app_version: appVersion });
      expect({ appVersion, served: ctas.includes(old) }).toEqual({ appVersion, served });
    }
  });

  it('evaluates string and set conditions on packageName and hotpatchVersion (codepush_version too), nested all/any', async () => {
    const t = tenant();
    await t.cohort({
      name: 'example-hotfixed',
      kind: 'rule',
      rule: {
        all: [
          { attribute: 'packageName', op: 'in', values: ['com.example.app', 'com.example.lite'] },
          {
            any: [
              { attribute: 'hotpatchVersion', op: 'eq', value: 'v7' },
              { attribute: 'hotpatchVersion', op: 'notIn', values: ['v1', 'v2', 'v7'] },
            ],
          },
        ],
      },
    });
    await t.cohort({
      name: 'not-example',
      kind: 'rule',
      rule: { any: [{ attribute: 'packageName', op: 'neq', value: 'com.example.app' }] },
    });
    const hotfixed = await t.cta(['example-hotfixed']);
    const other = await t.cta(['not-example']);
    expect(await launched(t.tenantId, '1', { package_name: 'com.example.app', hotpatch_version: 'v7' })).toEqual([hotfixed]);
    expect(await launched(t.tenantId, '1', { package_name: 'com.example.lite', hotpatch_version: 'v9' })).toEqual([hotfixed, other]);
    const codepush = await device(t.tenantId, '1', { package_name: 'com.example.app', codepush_version: 'v7' }).launch();
    expect(codepush.body.data.ctas.map((cta: { ctaId: string }) => cta.ctaId)).toEqual([hotfixed]);
    expect(await launched(t.tenantId, '1', { package_name: 'com.example.app', hotpatch_version: 'v2' })).toEqual([]);
    // A missing attribute makes its condition false, neq and notIn included.
    expect(await launched(t.tenantId, '1', { hotpatch_version: 'v7' })).toEqual([]);
  });

  it('puts about a tenth of the users of com.example.app in a 10% bucket, the same ones on every launch', async () => {
    const t = tenant();
    await t.cohort({
      name: 'example-10pct',
      kind: 'rule',
      rule: { all: [{ attribute: 'packageName', op: 'eq', value: 'com.example.app' }, { bucket: { from: 0, to: 10 } }] },
    });
    const tenth = await t.cta(['example-10pct']);
    const users = Array.from({ length: 400 }, (_, index) => String(1_000_000 + index * 7919));
    const servedTo = async (packageName: string) => {
      const served: string[] = [];
      for (const userId of users) {
        if ((await launched(t.tenantId, userId, { package_name: packageName })).includes(tenth)) served.push(userId);
      }
      return served;
    };
    const first = await servedTo('com.example.app');
    expect(first.length).toBeGreaterThanOrEqual(20);
    expect(first.length).toBeLessThanOrEqual(64);
    expect(await servedTo('com.example.app')).toEqual(first);
    // The buckets are the documented hash: any instance puts the same users there.
    expect(first).toEqual(users.filter((userId) => bucketOf(t.tenantId, 'example-10pct', userId) < 10));
    expect(await servedTo('com.other.app')).toEqual([]);
  });

  it('makes buckets of different salts independent, and a salt shared across cohorts the same', async () => {
    const t = tenant();
    await t.cohort({ name: 'half-a', kind: 'rule', rule: { all: [{ bucket: { from: 0, to: 50 } }] } });
    await t.cohort({ name: 'half-b', kind: 'rule', rule: { all: [{ bucket: { from: 0, to: 50 } }] } });
    await t.cohort({ name: 'half-a-again', kind: 'rule', rule: { all: [{ bucket: { from: 0, to: 50, salt: 'half-a' } }] } });
    const a = await t.cta(['half-a']);
    const b = await t.cta(['half-b']);
    const again = await t.cta(['half-a-again']);
    let both = 0;
    let inA = 0;
    for (let user = 1; user <= 300; user++) {
      const ctas = await launched(t.tenantId, String(user));
      expect(ctas.includes(again)).toBe(ctas.includes(a));
      if (ctas.includes(a)) inA++;
      if (ctas.includes(a) && ctas.includes(b)) both++;
    }
    expect(inA).toBeGreaterThan(110);
    expect(inA).toBeLessThan(190);
    // Independent halves overlap on about a quarter of the users.
    expect(both).toBeGreaterThan(45);
    expect(both).toBeLessThan(105);
  });

  it('evaluates a rule over a static cohort’s membership', async () => {
    const t = tenant();
    await t.cohort({ name: 'staff', kind: 'static' });
    await t.members('PUT', 'staff', { userIds: [10, 11] });
    await t.cohort({
      name: 'staff-on-old',
      kind: 'rule',
      rule: { all: [{ cohort: 'staff' }, { attribute: 'appVersion', op: 'semverLt', value: '5.2' }] },
    });
    const id = await t.cta(['staff-on-old']);
    expect(await launched(t.tenantId, '10', { app_version: '5.1' })).toEqual([id]);
    expect(await launched(t.tenantId, '10', { app_version: '5.2' })).toEqual([]);
    expect(await launched(t.tenantId, '12', { app_version: '5.1' })).toEqual([]);
  });

  it('sees a cohort defined or changed after the CTA at the next launch (definitions are part of the catalogue)', async () => {
    const t = tenant();
    const id = await t.cta(['later']);
    expect(await launched(t.tenantId, '1', { app_version: '5.0' })).toEqual([]);
    await t.cohort({ name: 'later', kind: 'rule', rule: { all: [{ attribute: 'appVersion', op: 'semverLt', value: '5.2' }] } });
    expect(await launched(t.tenantId, '1', { app_version: '5.0' })).toEqual([id]);
    expect((await t.updateCohort('later', { rule: { all: [{ attribute: 'appVersion', op: 'semverLt', value: '4.0' }] } })).status).toBe(
      200,
    );
    expect(await launched(t.tenantId, '1', { app_version: '5.0' })).toEqual([]);
  });

  it('keeps tenants apart: the same cohort name means each tenant’s own members', async () => {
    const a = tenant();
    const b = tenant();
    for (const t of [a, b]) await t.cohort({ name: 'vip', kind: 'static' });
    await a.members('PUT', 'vip', { userIds: [1] });
    await b.members('PUT', 'vip', { userIds: [2] });
    const ctaA = await a.cta(['vip']);
    const ctaB = await b.cta(['vip']);
    expect(await launched(a.tenantId, '1')).toEqual([ctaA]);
    expect(await launched(a.tenantId, '2')).toEqual([]);
    expect(await launched(b.tenantId, '2')).toEqual([ctaB]);
    expect(await launched(b.tenantId, '1')).toEqual([]);
  });

  it('serves launches while a replace uploads, each seeing the old list or the new one', async () => {
    const t = tenant();
    await t.cohort({ name: 'wave', kind: 'static' });
    const ids = (from: number, count: number) => Array.from({ length: count }, (_, index) => String(from + index));
    // Old list: 1..100000 and 900000; new list: 100001..200000 and 900000.
    await t.members('PUT', 'wave', [...ids(1, 100_000), '900000'].join('\n'));
    const id = await t.cta(['wave']);
    const seen: Record<'old' | 'new' | 'kept', boolean[]> = { old: [], new: [], kept: [] };
    let uploading = true;
    const replace = t.members('PUT', 'wave', [...ids(100_001, 100_000), '900000'].join('\n')).finally(() => (uploading = false));
    let launchesDuringUpload = 0;
    while (uploading) {
      const [oldUser, newUser, kept] = await Promise.all(['50', '150000', '900000'].map((userId) => launched(t.tenantId, userId)));
      if (uploading) launchesDuringUpload++;
      seen.old.push(oldUser.includes(id));
      seen.new.push(newUser.includes(id));
      seen.kept.push(kept.includes(id));
    }
    expect(await replace).toEqual({ added: 100_000, removed: 100_000, memberCount: 100_001 });
    expect(launchesDuringUpload).toBeGreaterThan(0);
    // Never neither, never both: a user in both lists is always served; the others switch once.
    expect(seen.kept.every(Boolean)).toBe(true);
    // The users of one list only switch once, from the old list to the new one.
    const switchesOnce = (values: boolean[], before: boolean) =>
      values.slice(Math.max(values.indexOf(!before), 0)).every((value) => value === !before) || values.every((value) => value === before);
    expect(switchesOnce(seen.old, true)).toBe(true);
    expect(switchesOnce(seen.new, false)).toBe(true);
    expect(await launched(t.tenantId, '50')).toEqual([]);
    expect(await launched(t.tenantId, '150000')).toEqual([id]);
  }, 120_000);
});
