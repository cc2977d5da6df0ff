import { AdminClient } from './admin-client';
import { examples } from './fixtures';
import { eachDatabase, errorBody, TestApp } from './harness';

let tenantSequence = 0;

/** The admin API of a fresh tenant. */
const freshTenant = (api: TestApp): AdminClient => new AdminClient(api, `cohorts-${++tenantSequence}`);

async function isMember(admin: AdminClient, name: string, userId: string): Promise<boolean> {
  const response = await admin.cohorts.member(name, userId);
  expect(response.status).toBe(200);
  return response.body.data.member;
}

const BELOW_5_2 = { all: [{ attribute: 'appVersion', op: 'semverLt', value: '5.2' }] };

eachDatabase('Cohorts admin API', (database) => {
  let api: TestApp;

  beforeAll(async () => {
    api = await TestApp.start(database, { COHORT_UPLOAD_LIMIT_BYTES: '4096' });
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

  describe('members', () => {
    let admin: AdminClient;

    beforeEach(async () => {
      admin = freshTenant(api);
      await admin.cohorts.create({ name: 'list', kind: 'static' });
    });

    it('adds, replaces and removes members, counting only real changes', async () => {
      expect((await admin.cohorts.members('POST', 'list', { userIds: [1, '2', '-9223372036854775808', '0003'] })).body).toEqual({
        data: { added: 4, removed: 0, memberCount: 4 },
      });
      expect((await admin.cohorts.members('POST', 'list', { userIds: [1, 2, 5] })).body.data).toEqual({
        added: 1,
        removed: 0,
        memberCount: 5,
      });
      expect(await isMember(admin, 'list', '3')).toBe(true);
      expect(await isMember(admin, 'list', '-9223372036854775808')).toBe(true);
      expect((await admin.cohorts.members('PUT', 'list', { userIds: [2, 5, 9223372036854775807n.toString(), 6] })).body.data).toEqual({
        added: 2,
        removed: 3,
        memberCount: 4,
      });
      expect(await isMember(admin, 'list', '1')).toBe(false);
      expect(await isMember(admin, 'list', '9223372036854775807')).toBe(true);
      expect((await admin.cohorts.members('DELETE', 'list', { userIds: [2, 7] })).body.data).toEqual({
        added: 0,
        removed: 1,
        memberCount: 3,
      });
      expect(await isMember(admin, 'list', '2')).toBe(false);
      expect((await admin.cohorts.get('list')).body.data).toMatchObject({ memberCount: 3, lastUpdatedBy: 'ops@example.com' });
      expect((await admin.cohorts.members('PUT', 'list', { userIds: [] })).body.data).toEqual({ added: 0, removed: 3, memberCount: 0 });
    });

    it('takes CSV and plain text uploads: optional header, blank lines, CRLF', async () => {
      expect((await admin.cohorts.members('PUT', 'list', 'userId\r\n10\r\n\r\n11\r\n 12 \r\n')).body).toEqual({
        data: { added: 3, removed: 0, memberCount: 3 },
      });
      expect((await admin.cohorts.members('POST', 'list', '12\n13', { 'content-type': 'text/plain; charset=utf-8' })).body.data).toEqual({
        added: 1,
        removed: 0,
        memberCount: 4,
      });
      expect(await isMember(admin, 'list', '13')).toBe(true);
    });

    it('refuses a CSV with a bad line, naming it, and changes nothing', async () => {
      await admin.cohorts.members('PUT', 'list', { userIds: [1, 2] });
      for (const method of ['PUT', 'POST'] as const) {
        const response = await admin.cohorts.members(method, 'list', 'userId\n3\n\nabc\n4\n');
        expect(response).toMatchObject({
          status: 400,
          body: errorBody('INVALID_REQUEST', 'line 4: "abc" is not a user id (a signed 64-bit integer)'),
        });
      }
      const outOfRange = await admin.cohorts.members('PUT', 'list', '3\n9223372036854775808\n');
      expect(outOfRange.body.error.message).toBe('line 2: "9223372036854775808" is not a user id (a signed 64-bit integer)');
      expect(await isMember(admin, 'list', '3')).toBe(false);
      expect(await isMember(admin, 'list', '1')).toBe(true);
      expect((await admin.cohorts.get('list')).body.data.memberCount).toBe(2);
    });

    it.each([
      [{ userIds: [1, 'x'] }, 'userIds[1]: "x" is not a signed 64-bit integer'],
      [{ userIds: [1, 2.5] }, 'userIds[1]: 2.5 is not a signed 64-bit integer'],
      [{ userIds: [Number.MAX_SAFE_INTEGER + 1] }, 'send it as a decimal string'],
      [{ userIds: ['18446744073709551616'] }, 'userIds[0]: "18446744073709551616" is not a signed 64-bit integer'],
      [{ userIds: [null] }, 'userIds[0]: null is not a signed 64-bit integer'],
      [{ ids: [1] }, 'the body must be {"userIds": [...]}'],
      [[1, 2], 'the body must be {"userIds": [...]}'],
    ])('refuses the JSON body %j, changing nothing', async (body, message) => {
      await admin.cohorts.members('PUT', 'list', { userIds: [1] });
      const response = await admin.raw('POST', '/cohorts/list/members', { body });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('INVALID_REQUEST');
      expect(response.body.error.message).toContain(message);
      expect((await admin.cohorts.get('list')).body.data.memberCount).toBe(1);
    });

    it('refuses more than 100,000 JSON ids', async () => {
      const userIds = Array.from({ length: 100_001 }, (_, index) => index);
      const response = await admin.cohorts.members('POST', 'list', { userIds });
      expect(response).toMatchObject({
        status: 400,
        body: errorBody('INVALID_REQUEST', 'userIds has 100001 ids; a JSON body takes at most 100000 (upload longer lists as text/csv)'),
      });
    });

    it('accepts 100,000 JSON ids (past the 1 MiB body limit of other routes)', async () => {
      const userIds = Array.from({ length: 100_000 }, (_, index) => String(1_000_000_000_000 + index));
      const response = await admin.cohorts.members('PUT', 'list', { userIds });
      expect(response.body).toEqual({ data: { added: 100_000, removed: 0, memberCount: 100_000 } });
    });

    it('answers 413 to an upload over COHORT_UPLOAD_LIMIT_BYTES, changing nothing', async () => {
      const csv = Array.from({ length: 2000 }, (_, index) => String(index)).join('\n');
      expect(csv.length).toBeGreaterThan(4096);
      const response = await admin.cohorts.members('PUT', 'list', csv);
      expect(response).toMatchObject({ status: 413, body: errorBody('PAYLOAD_TOO_LARGE') });
      expect((await admin.cohorts.get('list')).body.data.memberCount).toBe(0);
    });

    it('answers 413 to an upload over the limit without a content-length (chunked)', async () => {
      const { Readable } = await import('node:stream');
      const lines = Array.from({ length: 2000 }, (_, index) => `${index}\n`);
      const response = await api.app.inject({
        method: 'PUT',
        url: '/engine/cohorts/list/members',
        headers: { ...admin.headers(), 'content-type': 'text/csv' },
        payload: Readable.from(lines),
      });
      expect(response.statusCode).toBe(413);
      expect(response.json()).toEqual(errorBody('PAYLOAD_TOO_LARGE'));
      expect((await admin.cohorts.get('list')).body.data.memberCount).toBe(0);
    });

    it('refuses members of rule cohorts, unknown cohorts, CSV removal and CSV on other routes', async () => {
      await admin.cohorts.create({ name: 'ruled', kind: 'rule', rule: BELOW_5_2 });
      expect(await admin.cohorts.members('POST', 'ruled', { userIds: [1] })).toMatchObject({
        status: 400,
        body: errorBody('INVALID_REQUEST', "cohort 'ruled' is a rule cohort: only static cohorts have members"),
      });
      expect((await admin.cohorts.members('PUT', 'ruled', '1\n')).status).toBe(400);
      expect((await admin.cohorts.member('ruled', 1)).status).toBe(400);
      expect(await admin.cohorts.members('POST', 'missing', { userIds: [1] })).toMatchObject({
        status: 404,
        body: errorBody('COHORT_NOT_FOUND'),
      });
      expect(await admin.cohorts.members('PUT', 'missing', '1\n')).toMatchObject({
        status: 404,
        body: errorBody('COHORT_NOT_FOUND'),
      });
      expect((await admin.cohorts.member('missing', 1)).status).toBe(404);
      expect(await admin.cohorts.member('list', 'abc')).toMatchObject({
        status: 400,
        body: errorBody('INVALID_REQUEST', 'userId "abc" is not a signed 64-bit integer'),
      });
      expect((await admin.cohorts.members('DELETE', 'list', '1\n')).status).toBe(415);
      const other = await admin.raw('POST', '/cohorts', { body: 'name', headers: { 'content-type': 'text/csv' } });
      expect(other).toMatchObject({ status: 415, body: errorBody('UNSUPPORTED_MEDIA_TYPE') });
    });

    it('refuses an add past 1,000,000 members', async () => {
      // Fill the cohort to the cap through CSV in one go, then one more.
      const csv = Array.from({ length: 1_000_000 }, (_, index) => String(index)).join('\n');
      const big = await TestApp.start(database);
      try {
        const client = freshTenant(big);
        await client.cohorts.create({ name: 'full', kind: 'static' });
        expect((await client.cohorts.members('PUT', 'full', csv)).body.data).toEqual({
          added: 1_000_000,
          removed: 0,
          memberCount: 1_000_000,
        });
        expect(await client.cohorts.members('POST', 'full', { userIds: [-1] })).toMatchObject({
          status: 400,
          body: errorBody('INVALID_REQUEST', 'a cohort holds at most 1000000 members'),
        });
        expect(await isMember(client, 'full', '-1')).toBe(false);
        expect((await client.cohorts.members('POST', 'full', { userIds: [5] })).body.data).toEqual({
          added: 0,
          removed: 0,
          memberCount: 1_000_000,
        });
      } finally {
        await big.close();
      }
    }, 240_000);
  });

  it('keeps the examples usable: the shared rule names cohorts that are not checked on write', async () => {
    // Names in cohortEligibility are free text (a host's provider has its own names).
    const catalogue = new AdminClient(api, freshTenant(api).tenantId);
    expect(
      await catalogue.cta({ rule: { ...examples.rule(), cohortEligibility: { includes: ['unknown-cohort'], excludes: [] } } }),
    ).toMatch(/^\d+$/);
  });
});
