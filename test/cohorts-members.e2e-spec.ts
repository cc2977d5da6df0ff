import { AdminClient } from './admin-client';
import { BELOW_5_2, freshTenant, isMember } from './cohorts';
import { eachDatabase, errorBody, TestApp } from './harness';

/** `POST`, `PUT`, `DELETE /engine/cohorts/{name}/members` and `GET …/members/{userId}`: static cohorts' members, JSON and CSV. */

eachDatabase('Cohorts admin API', (database) => {
  let api: TestApp;

  beforeAll(async () => {
    api = await TestApp.start(database, { COHORT_UPLOAD_LIMIT_BYTES: '4096' });
  });

  afterAll(async () => {
    await api.close();
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
});
