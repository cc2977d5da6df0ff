import { AdminClient } from './admin-client';
import { segment } from './api-client';
import { dataSourceOf } from './database-contents';
import { eachDatabase, errorBody, TestApp } from './harness';

const property = (propertyName: string, fields: Record<string, unknown> = {}) => ({
  propertyName,
  type: 'String',
  isMandatory: true,
  ...fields,
});
const stored = (propertyName: string, fields: Record<string, unknown> = {}) => ({
  propertyName,
  type: 'String',
  isMandatory: true,
  expectedValue: null,
  description: null,
  ...fields,
});
const ok = (data: unknown) => ({ success: true, data, statusCode: 200 });

eachDatabase('event definitions', (database) => {
  let api: TestApp;
  let sequence = 0;
  /** A fresh tenant's admin API, without the (optional) user header. */
  const tenant = (): AdminClient => new AdminClient(api, `events-${++sequence}`, null);

  beforeAll(async () => {
    api = await TestApp.start(database);
  });
  afterAll(() => api.close());

  const rowCount = async (): Promise<number> => {
    const dataSource = dataSourceOf(api);
    const [{ count }] = await dataSource.query('SELECT COUNT(*) AS count FROM event_definitions');
    return Number(count);
  };

  describe('POST /engine/events', () => {
    it('creates events, keeps properties in the order sent and answers eventsProcessed', async () => {
      const admin = tenant();
      const body = {
        events: [
          {
            eventName: 'store_opened',
            properties: [
              property('storeId', { description: 'the store' }),
              property('source', { isMandatory: false, expectedValue: 'home', type: 'String' }),
            ],
          },
          { eventName: 'app_launched', properties: [] },
        ],
      };
      const created = await admin.events.upsert(body);
      expect(created).toMatchObject({ status: 200, body: ok({ eventsProcessed: 2 }) });

      const read = await admin.events.get('store_opened');
      expect(read.status).toBe(200);
      expect(read.body).toEqual(
        ok({
          eventName: 'store_opened',
          properties: [stored('storeId', { description: 'the store' }), stored('source', { isMandatory: false, expectedValue: 'home' })],
        }),
      );
    });

    it('upserts: an existing event gets its properties replaced, and x-source is accepted', async () => {
      const admin = tenant();
      await admin.events.upsert({ events: [{ eventName: 'purchase', properties: [property('amount'), property('currency')] }] });
      const again = await admin.events.upsert(
        { events: [{ eventName: 'purchase', properties: [property('sku')] }] },
        { 'x-source': 'backfill-job' },
      );
      expect(again.body).toEqual(ok({ eventsProcessed: 1 }));
      expect((await admin.events.get('purchase')).body.data.properties).toEqual([stored('sku')]);
      expect((await admin.events.names()).body).toEqual(ok({ eventNames: ['purchase'] }));
    });

    it('stores the x-source header, admin-api by default', async () => {
      const admin = tenant();
      await admin.events.upsert({ events: [{ eventName: 'a', properties: [] }] });
      await admin.events.upsert({ events: [{ eventName: 'b', properties: [] }] }, { 'x-source': 'crm' });
      const dataSource = dataSourceOf(api);
      const rows = await dataSource.query('SELECT name, source FROM event_definitions WHERE tenant_id = ? ORDER BY name', [admin.tenantId]);
      expect(rows).toEqual([
        { name: 'a', source: 'admin-api' },
        { name: 'b', source: 'crm' },
      ]);
    });

    it('reads absent properties as none', async () => {
      const admin = tenant();
      expect((await admin.events.upsert({ events: [{ eventName: 'bare' }] })).body).toEqual(ok({ eventsProcessed: 1 }));
      expect((await admin.events.get('bare')).body).toEqual(ok({ eventName: 'bare', properties: [] }));
    });

    const invalidBodies: [string, unknown, RegExp][] = [
      ['no events', {}, /^events /],
      ['an empty events list', { events: [] }, /^events should not be empty/],
      ['events not an array', { events: { eventName: 'x' } }, /^events must be an array/],
      ['an empty eventName', { events: [{ eventName: '', properties: [] }] }, /^events\[0\]\.eventName /],
      ['an eventName of 256 characters', { events: [{ eventName: 'e'.repeat(256), properties: [] }] }, /^events\[0\]\.eventName /],
      ['a numeric eventName', { events: [{ eventName: 5, properties: [] }] }, /^events\[0\]\.eventName must be a string/],
      ['null properties', { events: [{ eventName: 'x', properties: null }] }, /^events\[0\]\.properties must be an array/],
      [
        'a property without propertyName',
        { events: [{ eventName: 'x', properties: [{ type: 'String', isMandatory: true }] }] },
        /^events\[0\]\.properties\[0\]\.propertyName /,
      ],
      [
        'an empty type',
        { events: [{ eventName: 'x', properties: [property('p', { type: '' })] }] },
        /^events\[0\]\.properties\[0\]\.type /,
      ],
      [
        'isMandatory as a string',
        { events: [{ eventName: 'x', properties: [property('p', { isMandatory: 'true' })] }] },
        /^events\[0\]\.properties\[0\]\.isMandatory must be a boolean/,
      ],
      [
        'isMandatory missing',
        { events: [{ eventName: 'x', properties: [{ propertyName: 'p', type: 'String' }] }] },
        /^events\[0\]\.properties\[0\]\.isMandatory/,
      ],
      [
        'a numeric expectedValue',
        { events: [{ eventName: 'x', properties: [property('p', { expectedValue: 5 })] }] },
        /^events\[0\]\.properties\[0\]\.expectedValue must be a string/,
      ],
      [
        'a property that is not an object',
        { events: [{ eventName: 'x', properties: ['p'] }] },
        /^events\[0\]\.properties\[0\] must be an object/,
      ],
      ['an event that is not an object', { events: ['x'] }, /^events\[0\] must be an object$/],
      [
        'one event name twice',
        {
          events: [
            { eventName: 'x', properties: [] },
            { eventName: 'x', properties: [] },
          ],
        },
        /event 'x' appears more than once/,
      ],
      [
        'one property name twice',
        { events: [{ eventName: 'x', properties: [property('p'), property('p')] }] },
        /event 'x' has the property 'p' more than once/,
      ],
      [
        '1001 events',
        { events: Array.from({ length: 1001 }, (_, index) => ({ eventName: `e${index}`, properties: [] })) },
        /^events must contain no more than 1000/,
      ],
    ];

    it.each(invalidBodies)('rejects %s with INVALID_REQUEST naming the field, writing nothing', async (_case, body, message) => {
      const admin = tenant();
      const before = await rowCount();
      const response = await admin.raw('POST', '/events', { body });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(errorBody('INVALID_REQUEST', expect.stringMatching(message)));
      expect(await rowCount()).toBe(before);
    });

    it('writes nothing of a body whose second event is invalid', async () => {
      const admin = tenant();
      const response = await admin.events.upsert({
        events: [
          { eventName: 'good', properties: [] },
          { eventName: '', properties: [] },
        ],
      });
      expect(response.status).toBe(400);
      expect((await admin.events.list()).body).toEqual(ok({ eventList: [] }));
    });

    it('rejects malformed JSON, a malformed tenant and an overlong x-source', async () => {
      const admin = tenant();
      expect(await admin.raw('POST', '/events', { body: '{"events": [' })).toMatchObject({
        status: 400,
        body: errorBody('INVALID_REQUEST'),
      });
      expect(await admin.events.upsert({ events: [{ eventName: 'x' }] }, { 'x-tenant-id': 'bad tenant!' })).toMatchObject({
        status: 400,
        body: errorBody('INVALID_REQUEST', expect.stringContaining('x-tenant-id')),
      });
      expect(await admin.events.upsert({ events: [{ eventName: 'x' }] }, { 'x-source': 's'.repeat(256) })).toMatchObject({
        status: 400,
        body: errorBody('INVALID_REQUEST', expect.stringContaining('x-source')),
      });
    });

    it('survives racing upserts of the same new name: every request succeeds, one definition remains', async () => {
      const admin = tenant();
      const responses = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          admin.events.upsert({ events: [{ eventName: 'raced', properties: [property(`p${index}`)] }] }),
        ),
      );
      expect(responses.map((response) => response.status)).toEqual(Array(12).fill(200));
      const list = await admin.events.list();
      expect(list.body.data.eventList).toHaveLength(1);
      expect(list.body.data.eventList[0].properties).toHaveLength(1);
    });
    it('survives racing upserts of overlapping names sent in different orders (no deadlock reaches a client)', async () => {
      const admin = tenant();
      const names = Array.from({ length: 20 }, (_, index) => `overlap-${String(index).padStart(2, '0')}`);
      const responses = await Promise.all(
        Array.from({ length: 12 }, (_, request) => {
          const order = request % 2 ? [...names].reverse() : names.map((_, index) => names[(index * 7 + request) % names.length]);
          return admin.events.upsert({ events: order.map((eventName) => ({ eventName, properties: [property(`p${request}`)] })) });
        }),
      );
      expect(responses.map((response) => response.status)).toEqual(Array(12).fill(200));
      expect((await admin.events.names()).body.data.eventNames).toEqual(names);
    });
  });

  describe('GET /engine/events and /engine/events/list/names', () => {
    it('lists the tenant’s events sorted by name, with the event envelope', async () => {
      const admin = tenant();
      await admin.events.upsert({
        events: [
          { eventName: 'zeta', properties: [property('z')] },
          { eventName: 'Alpha', properties: [] },
          { eventName: 'beta', properties: [] },
        ],
      });
      const list = await admin.events.list();
      expect(list).toMatchObject({ status: 200 });
      expect(list.body).toEqual(
        ok({
          eventList: [
            { eventName: 'Alpha', properties: [] },
            { eventName: 'beta', properties: [] },
            { eventName: 'zeta', properties: [stored('z')] },
          ],
        }),
      );
      expect((await admin.events.names()).body).toEqual(ok({ eventNames: ['Alpha', 'beta', 'zeta'] }));
    });

    it('answers empty lists for a tenant without events', async () => {
      const admin = tenant();
      expect((await admin.events.list()).body).toEqual(ok({ eventList: [] }));
      expect((await admin.events.names()).body).toEqual(ok({ eventNames: [] }));
    });
  });

  describe('GET, PUT and DELETE /engine/events/{name}', () => {
    it('URL-decodes names and compares them exactly', async () => {
      const admin = tenant();
      const name = 'checkout / step 2 ✓';
      await admin.events.upsert({ events: [{ eventName: name, properties: [] }] });
      expect((await admin.events.get(name)).body).toEqual(ok({ eventName: name, properties: [] }));
      expect(await admin.events.get('CHECKOUT / STEP 2 ✓')).toMatchObject({ status: 404, body: errorBody('EVENT_NOT_FOUND') });
      expect(await admin.events.get(`${name} `)).toMatchObject({ status: 404, body: errorBody('EVENT_NOT_FOUND') });
    });

    it('keeps /list/names apart from events named list or list/names', async () => {
      const admin = tenant();
      await admin.events.upsert({
        events: [
          { eventName: 'list', properties: [property('a')] },
          { eventName: 'list/names', properties: [property('b')] },
        ],
      });
      expect((await admin.events.names()).body).toEqual(ok({ eventNames: ['list', 'list/names'] }));
      expect((await admin.events.get('list')).body).toEqual(ok({ eventName: 'list', properties: [stored('a')] }));
      expect(segment('list/names')).toBe('list%2Fnames');
      expect((await admin.events.get('list/names')).body).toEqual(ok({ eventName: 'list/names', properties: [stored('b')] }));
      expect((await admin.events.delete('list/names')).body).toEqual(ok(null));
      expect((await admin.events.names()).body).toEqual(ok({ eventNames: ['list'] }));
    });

    it('serves a name of 255 characters, far longer once percent-encoded, on GET, PUT and DELETE', async () => {
      const admin = tenant();
      const name = 'é✓'.repeat(127) + 'x';
      expect(segment(name).length).toBeGreaterThan(1500);
      await admin.events.upsert({ events: [{ eventName: name, properties: [] }] });
      expect((await admin.events.get(name)).body).toEqual(ok({ eventName: name, properties: [] }));
      expect((await admin.events.replace(name, { properties: [property('p')] })).body).toEqual(ok(null));
      expect((await admin.events.get(name)).body.data.properties).toEqual([stored('p')]);
      expect((await admin.events.delete(name)).body).toEqual(ok(null));
      expect(await admin.events.get(name)).toMatchObject({ status: 404, body: errorBody('EVENT_NOT_FOUND') });
    });

    it('PUT replaces the properties (an empty list too) and answers data null', async () => {
      const admin = tenant();
      await admin.events.upsert({ events: [{ eventName: 'login', properties: [property('method')] }] });
      const replaced = await admin.events.replace('login', {
        properties: [property('provider', { expectedValue: 'google' }), property('first', { type: 'Boolean' })],
      });
      expect(replaced).toMatchObject({ status: 200, body: ok(null) });
      expect((await admin.events.get('login')).body.data.properties).toEqual([
        stored('provider', { expectedValue: 'google' }),
        stored('first', { type: 'Boolean' }),
      ]);
      expect((await admin.events.replace('login', { properties: [] })).body).toEqual(ok(null));
      expect((await admin.events.get('login')).body.data.properties).toEqual([]);
    });

    it('PUT requires properties and validates them, changing nothing on a 400', async () => {
      const admin = tenant();
      await admin.events.upsert({ events: [{ eventName: 'login', properties: [property('method')] }] });
      for (const [body, message] of [
        [{}, /^properties /],
        [{ properties: null }, /^properties must be an array/],
        [{ properties: [property('a', { isMandatory: 1 })] }, /^properties\[0\]\.isMandatory must be a boolean/],
        [{ properties: [property('a'), property('a')] }, /has the property 'a' more than once/],
      ] as [unknown, RegExp][]) {
        const response = await admin.raw('PUT', '/events/login', { body });
        expect(response).toMatchObject({ status: 400, body: errorBody('INVALID_REQUEST', expect.stringMatching(message)) });
      }
      expect((await admin.events.get('login')).body.data.properties).toEqual([stored('method')]);
    });

    it('DELETE removes the event and answers data null', async () => {
      const admin = tenant();
      await admin.events.upsert({
        events: [
          { eventName: 'gone', properties: [] },
          { eventName: 'kept', properties: [] },
        ],
      });
      expect(await admin.events.delete('gone')).toMatchObject({ status: 200, body: ok(null) });
      expect(await admin.events.get('gone')).toMatchObject({ status: 404, body: errorBody('EVENT_NOT_FOUND') });
      expect((await admin.events.names()).body).toEqual(ok({ eventNames: ['kept'] }));
    });

    it('answers 404 EVENT_NOT_FOUND naming the event on GET, PUT and DELETE of an unknown name', async () => {
      const admin = tenant();
      const message = "event 'nope' does not exist";
      expect(await admin.events.get('nope')).toMatchObject({ status: 404, body: errorBody('EVENT_NOT_FOUND', message) });
      expect(await admin.events.replace('nope', { properties: [] })).toMatchObject({
        status: 404,
        body: errorBody('EVENT_NOT_FOUND', message),
      });
      expect(await admin.events.delete('nope')).toMatchObject({ status: 404, body: errorBody('EVENT_NOT_FOUND', message) });
    });
  });

  it('keeps tenants apart, and uses the default tenant without x-tenant-id', async () => {
    const one = tenant();
    const two = tenant();
    const defaultTenant = new AdminClient(api, 'default', null);
    await one.events.upsert({ events: [{ eventName: 'shared', properties: [property('one')] }] });
    await two.events.upsert({ events: [{ eventName: 'shared', properties: [property('two')] }] });
    expect((await one.events.get('shared')).body.data.properties).toEqual([stored('one')]);
    expect((await two.events.get('shared')).body.data.properties).toEqual([stored('two')]);
    expect(await one.events.delete('shared')).toMatchObject({ status: 200 });
    expect((await two.events.get('shared')).status).toBe(200);
    expect(await one.events.replace('shared', { properties: [] })).toMatchObject({ status: 404 });

    await one.events.upsert({ events: [{ eventName: 'default-only', properties: [] }] }, { 'x-tenant-id': undefined });
    expect((await defaultTenant.events.get('default-only')).status).toBe(200);
    expect((await two.events.get('default-only')).status).toBe(404);
  });
});
