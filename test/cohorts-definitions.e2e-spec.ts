import { AdminClient } from './admin-client';
import { BELOW_5_2, freshTenant, isMember } from './cohorts';
import { examples } from './fixtures';
import { eachDatabase, errorBody, TestApp } from './harness';

/** `POST`, `GET`, `PUT` and `DELETE /engine/cohorts[/{name}]`: cohort definitions and their rules; `GET /engine/cohort-names`. */

eachDatabase('Cohorts admin API', (database) => {
  let api: TestApp;

  beforeAll(async () => {
    api = await TestApp.start(database);
  });

  afterAll(async () => {
    await api.close();
  });

  describe('definitions', () => {
    it('creates, lists, reads, updates and deletes static and rule cohorts', async () => {
      const admin = freshTenant(api);
      const created = await admin.cohorts.create({ name: 'beta-testers', description: 'the beta', kind: 'static' });
      expect(created.status).toBe(200);
      expect(created.body.data).toEqual({
        name: 'beta-testers',
        description: 'the beta',
        kind: 'static',
        rule: null,
        memberCount: 0,
        usedBy: [],
        createdAt: expect.any(Number),
        createdBy: 'ops@example.com',
        lastUpdatedAt: null,
        lastUpdatedBy: null,
        tenantId: admin.tenantId,
      });
      const rule = await admin.cohorts.create({ name: 'old:app.versions_1', kind: 'rule', rule: BELOW_5_2 });
      expect(rule.status).toBe(200);
      expect(rule.body.data).toMatchObject({ kind: 'rule', rule: BELOW_5_2, memberCount: null, description: null });

      const list = await admin.cohorts.list();
      expect(list.status).toBe(200);
      expect(list.body.data.cohorts.map((cohort: { name: string }) => cohort.name)).toEqual(['beta-testers', 'old:app.versions_1']);

      const createdAt = created.body.data.createdAt;
      expect(Math.abs(createdAt - api.clock.now())).toBeLessThan(60_000);
      api.clock.advance(1000);
      const updated = await admin.cohorts.update('old:app.versions_1', {
        description: 'below 5.3',
        rule: { any: [{ attribute: 'appVersion', op: 'semverLt', value: '5.3' }] },
      });
      expect(updated.status).toBe(200);
      expect(updated.body.data).toMatchObject({
        description: 'below 5.3',
        rule: { any: [{ attribute: 'appVersion', op: 'semverLt', value: '5.3' }] },
        lastUpdatedBy: 'ops@example.com',
      });
      expect(updated.body.data.lastUpdatedAt).toBeGreaterThanOrEqual(createdAt + 1000);
      // Omitted fields keep their value; null clears the description.
      const cleared = await admin.cohorts.update('old:app.versions_1', { description: null });
      expect(cleared.body.data).toMatchObject({
        description: null,
        rule: { any: [{ attribute: 'appVersion', op: 'semverLt', value: '5.3' }] },
      });

      expect((await admin.cohorts.delete('old:app.versions_1')).body).toEqual({ data: null });
      expect(await admin.cohorts.get('old:app.versions_1')).toMatchObject({
        status: 404,
        body: errorBody('COHORT_NOT_FOUND', "cohort 'old:app.versions_1' does not exist"),
      });
      expect(await admin.cohorts.delete('old:app.versions_1')).toMatchObject({
        status: 404,
        body: errorBody('COHORT_NOT_FOUND'),
      });
    });

    it('names every cohort a CTA can target, all first, for cohort pickers (a userId sent is ignored)', async () => {
      const admin = freshTenant(api);
      expect((await admin.cohorts.names()).body).toEqual({ data: ['all'] });
      await admin.cohorts.create({ name: 'old-app', kind: 'rule', rule: BELOW_5_2 });
      await admin.cohorts.create({ name: 'Beta', kind: 'static' });
      await admin.cohorts.create({ name: 'beta-testers', kind: 'static' });
      const names = ['all', ...(await admin.cohorts.list()).body.data.cohorts.map((cohort: { name: string }) => cohort.name)];
      expect(names).toHaveLength(4);
      expect((await admin.cohorts.names()).body).toEqual({ data: names });
      expect((await admin.cohorts.names('?userId=ops%40example.com')).body).toEqual({ data: names });
      expect((await freshTenant(api).cohorts.names('?userId=someone')).body).toEqual({ data: ['all'] });
      await admin.cohorts.delete('Beta');
      expect((await admin.cohorts.names()).body.data).not.toContain('Beta');
    });

    it('refuses a taken name with COHORT_DUPLICATE_NAME, exactly (case-sensitive)', async () => {
      const admin = freshTenant(api);
      expect((await admin.cohorts.create({ name: 'vip', kind: 'static' })).status).toBe(200);
      expect(await admin.cohorts.create({ name: 'vip', kind: 'rule', rule: BELOW_5_2 })).toMatchObject({
        status: 400,
        body: errorBody('COHORT_DUPLICATE_NAME', "a cohort named 'vip' already exists"),
      });
      expect((await admin.cohorts.create({ name: 'VIP', kind: 'static' })).status).toBe(200);
    });

    it.each([
      [{ name: 'bad name', kind: 'static' }, "name must be 1-255 characters of A-Z, a-z, 0-9, '.', '_', ':' or '-'"],
      [{ name: 'x'.repeat(256), kind: 'static' }, 'name must be 1-255 characters'],
      [{ name: '', kind: 'static' }, 'name must be 1-255 characters'],
      [{ name: 'all', kind: 'static' }, "name 'all' is reserved"],
      [{ name: 5, kind: 'static' }, 'name must be a string'],
      [{ name: 'k', kind: 'dynamic' }, 'kind must be one of'],
      [{ name: 'k', kind: 'rule' }, 'rule is required for rule cohorts'],
      [{ name: 'k', kind: 'static', rule: BELOW_5_2 }, 'rule: static cohorts have no rule'],
      [
        { name: 'k', kind: 'rule', rule: { all: [{ attribute: 'osVersion', op: 'eq', value: '1' }] } },
        'rule.all[0].attribute: "osVersion" is not one of appVersion, packageName, hotpatchVersion',
      ],
      [
        { name: 'k', kind: 'rule', rule: { all: [{ attribute: 'appVersion', op: 'gt', value: '1' }] } },
        'rule.all[0].op: "gt" is not one of eq, neq, in, notIn, semverLt',
      ],
      [
        { name: 'k', kind: 'rule', rule: { any: [{ bucket: { from: 0, to: 101 } }] } },
        'rule.any[0].bucket.to: must be an integer from 0 to 100 (got 101)',
      ],
      [
        { name: 'k', kind: 'rule', rule: { any: [{ bucket: { from: -1, to: 10 } }] } },
        'rule.any[0].bucket.from: must be an integer from 0 to 100 (got -1)',
      ],
      [
        { name: 'k', kind: 'rule', rule: { any: [{ bucket: { from: 50, to: 10 } }] } },
        'rule.any[0].bucket: from (50) must be below to (10)',
      ],
      [
        { name: 'k', kind: 'rule', rule: { all: [{ attribute: 'packageName', op: 'semverLt', value: '5.2' }] } },
        'rule.all[0].op: semverLt applies to appVersion only',
      ],
      [
        { name: 'k', kind: 'rule', rule: { all: [{ attribute: 'appVersion', op: 'semverGte', value: 'five' }] } },
        'rule.all[0].value: "five" is not a version',
      ],
      [
        { name: 'k', kind: 'rule', rule: { all: [{ attribute: 'packageName', op: 'in', values: [] }] } },
        'rule.all[0].values: must be an array of 1 to 1000 strings',
      ],
      [
        { name: 'k', kind: 'rule', rule: { all: [{ any: [{ all: [{ any: [{ bucket: { from: 0, to: 1 } }] }] }] }] } },
        'rule.all[0].any[0].all[0].any: groups nest at most 3 deep',
      ],
      [{ name: 'k', kind: 'rule', rule: { all: [] } }, 'rule.all: must be a non-empty array of conditions'],
      [{ name: 'k', kind: 'rule', rule: { none: [] } }, 'rule: must have exactly one key, "all" or "any"'],
      [
        { name: 'k', kind: 'rule', rule: { all: [{ cohort: 'missing' }] } },
        'rule.all[0].cohort: "missing" is not a static cohort of the tenant',
      ],
    ])('refuses %j with INVALID_REQUEST naming the problem', async (body, message) => {
      const admin = freshTenant(api);
      const response = await admin.raw('POST', '/cohorts/', { body });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('INVALID_REQUEST');
      expect(response.body.error.message).toContain(message);
      expect((await admin.cohorts.list()).body.data.cohorts).toEqual([]);
    });

    it('names every problem of a rule in one message', async () => {
      const response = await freshTenant(api).cohorts.create({
        name: 'k',
        kind: 'rule',
        rule: { all: [{ attribute: 'os', op: 'eq', value: 'x' }, { bucket: { from: 0, to: 200 } }] },
      });
      expect(response.body.error.message).toBe(
        'rule.all[0].attribute: "os" is not one of appVersion, packageName, hotpatchVersion; rule.all[1].bucket.to: must be an integer from 0 to 100 (got 200)',
      );
    });

    it('refuses to change the kind or the name, or to give a static cohort a rule', async () => {
      const admin = freshTenant(api);
      await admin.cohorts.create({ name: 's', kind: 'static' });
      for (const [body, message] of [
        [{ kind: 'rule' }, 'kind cannot be changed'],
        [{ name: 't' }, 'name cannot be changed'],
        [{ rule: BELOW_5_2 }, 'rule: static cohorts have no rule'],
        [{ description: 5 }, 'description must be a string'],
      ] as const) {
        const response = await admin.raw('PUT', '/cohorts/s', { body });
        expect(response.status).toBe(400);
        expect(response.body.error.message).toContain(message);
      }
      expect(await admin.cohorts.update('missing', { description: 'x' })).toMatchObject({
        status: 404,
        body: errorBody('COHORT_NOT_FOUND'),
      });
    });

    it('requires the user header on writes', async () => {
      const admin = freshTenant(api);
      const response = await admin.cohorts.create({ name: 'x', kind: 'static' }, { user: undefined });
      expect(response).toMatchObject({ status: 400, body: errorBody('INVALID_REQUEST', "header 'user' is required") });
    });

    it('shows the CTAs naming a cohort in usedBy, and refuses to delete it while one is live, scheduled or paused', async () => {
      const admin = freshTenant(api);
      const catalogue = new AdminClient(api, admin.tenantId);
      await admin.cohorts.create({ name: 'paying', kind: 'static' });
      const rule = (includes: string[], excludes: string[]) => ({ cohortEligibility: { includes, excludes } });
      const live = await catalogue.cta({ rule: rule(['all'], ['paying']) });
      const draft = await catalogue.cta({ rule: rule(['paying'], []), actions: [] });
      expect((await admin.cohorts.get('paying')).body.data.usedBy).toEqual([live, draft].sort((a, b) => Number(a) - Number(b)));
      expect(await admin.cohorts.delete('paying')).toMatchObject({
        status: 400,
        body: errorBody(
          'COHORT_IN_USE',
          `cohort 'paying' is named by live, scheduled or paused CTAs ${live}; conclude, terminate or edit them first`,
        ),
      });
      await catalogue.move(live, 'pause');
      expect((await admin.cohorts.delete('paying')).body.error.code).toBe('COHORT_IN_USE');
      await catalogue.move(live, 'terminate');
      expect(await admin.cohorts.delete('paying')).toMatchObject({ status: 200, body: { data: null } });
    });

    it('refuses to delete a static cohort that a rule cohort names', async () => {
      const admin = freshTenant(api);
      await admin.cohorts.create({ name: 'staff', kind: 'static' });
      await admin.cohorts.create({ name: 'staff-on-old', kind: 'rule', rule: { all: [{ cohort: 'staff' }, ...BELOW_5_2.all] } });
      expect(await admin.cohorts.delete('staff')).toMatchObject({
        status: 400,
        body: errorBody('COHORT_IN_USE', "cohort 'staff' is named by the rules of cohorts 'staff-on-old'"),
      });
    });

    it("lets the validate endpoint warn only about names that are not the tenant's cohorts", async () => {
      const admin = freshTenant(api);
      await admin.cohorts.create({ name: 'beta-testers', kind: 'static' });
      await admin.cohorts.create({ name: 'old-app-versions', kind: 'rule', rule: BELOW_5_2 });
      const rule = {
        ...examples.rule(),
        cohortEligibility: { includes: ['all', 'beta-testers', 'premium'], excludes: ['old-app-versions', 'bad name'] },
      };
      const response = await admin.ctas.validate({ description: 'e2e', tags: [], team: 'growth', rule });
      expect(response.status).toBe(200);
      const cohortWarnings = response.body.data.warnings.filter((warning: { path: string }) =>
        warning.path.startsWith('rule.cohortEligibility'),
      );
      expect(cohortWarnings).toEqual([
        { path: 'rule.cohortEligibility.includes[2]', message: '"premium" is not a cohort of the tenant: no user is in it' },
        { path: 'rule.cohortEligibility.excludes[1]', message: '"bad name" is not a cohort of the tenant: no user is in it' },
      ]);
      // Another tenant's cohorts are not this one's.
      const other = await freshTenant(api).ctas.validate({ description: 'e2e', tags: [], team: 'growth', rule });
      expect(
        other.body.data.warnings.filter((warning: { path: string }) => warning.path.startsWith('rule.cohortEligibility')),
      ).toHaveLength(4);
    });

    it('keeps tenants apart', async () => {
      const a = freshTenant(api);
      const b = freshTenant(api);
      await a.cohorts.create({ name: 'shared-name', kind: 'static' });
      await a.cohorts.members('POST', 'shared-name', { userIds: [1] });
      expect((await b.cohorts.get('shared-name')).status).toBe(404);
      expect((await b.cohorts.create({ name: 'shared-name', kind: 'static' })).status).toBe(200);
      expect(await isMember(b, 'shared-name', '1')).toBe(false);
      expect((await b.cohorts.list()).body.data.cohorts).toHaveLength(1);
      expect((await b.cohorts.members('POST', 'shared-name', { userIds: [2] })).body.data).toEqual({
        added: 1,
        removed: 0,
        memberCount: 1,
      });
      expect(await isMember(a, 'shared-name', '2')).toBe(false);
      expect((await a.cohorts.get('shared-name')).body.data.memberCount).toBe(1);
    });
  });

  it('keeps the examples usable: the shared rule names cohorts that are not checked on write', async () => {
    // Names in cohortEligibility are free text (a host's provider has its own names).
    const catalogue = new AdminClient(api, freshTenant(api).tenantId);
    expect(
      await catalogue.cta({ rule: { ...examples.rule(), cohortEligibility: { includes: ['unknown-cohort'], excludes: [] } } }),
    ).toMatch(/^\d+$/);
  });
});
