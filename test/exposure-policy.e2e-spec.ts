import { AdminClient } from './admin-client';
import { eachDatabase, errorBody, TestApp } from './harness';

const OFF = { maxActions: null, window: null };
const KOLKATA = { maxActions: 2, window: { calendarDay: 'Asia/Kolkata' } };
const ROLLING = { maxActions: 3, window: { value: 24, unit: 'hours' } };

eachDatabase('exposure policy routes', (database) => {
  let api: TestApp;
  let tenantCount = 0;
  const admin = () => new AdminClient(api, `exposure-${++tenantCount}`);

  beforeAll(async () => {
    api = await TestApp.start(database);
  });
  afterAll(() => api.close());

  it('answers off for a tenant that never set one, and what PUT stored, per tenant', async () => {
    const first = admin();
    const second = admin();
    expect((await first.exposurePolicy.get()).body).toEqual({ data: OFF });
    expect(await first.exposurePolicy.put(KOLKATA)).toMatchObject({ status: 200, body: { data: KOLKATA } });
    expect((await first.exposurePolicy.get()).body).toEqual({ data: KOLKATA });
    expect(await second.exposurePolicy.put({ window: { unit: 'hours', value: 24 }, maxActions: 3 })).toMatchObject({
      status: 200,
      body: { data: ROLLING },
    });
    expect((await second.exposurePolicy.get()).body).toEqual({ data: ROLLING });
    expect((await first.exposurePolicy.get()).body).toEqual({ data: KOLKATA });
    expect((await first.exposurePolicy.put({ maxActions: null })).body).toEqual({ data: OFF });
    expect((await first.exposurePolicy.get()).body).toEqual({ data: OFF });
  });

  it.each<[string, unknown, string]>([
    [
      'a bad zone',
      { maxActions: 2, window: { calendarDay: 'Mars/Olympus' } },
      'window.calendarDay must be an IANA time zone such as "Asia/Kolkata", not "Mars/Olympus"',
    ],
    ['a bad unit', { maxActions: 2, window: { value: 2, unit: 'weeks' } }, 'window.unit must be one of minutes, hours, days, not "weeks"'],
    [
      'every bad field at once',
      { maxActions: 0, window: { value: '1', unit: 'days', extra: true }, other: 1 },
      'other is not a field of the exposure policy; maxActions must be an integer from 1 to 1000, or null (no cap), not 0; ' +
        'window.extra is not a field of the exposure policy; window.value must be an integer from 1 to 365 (days), not "1"',
    ],
    ['a cap without a window', { maxActions: 5 }, 'window is required when maxActions is set'],
    ['no body', undefined, 'the body must be a JSON object'],
  ])('refuses %s with a 400 naming it, and stores nothing', async (_case, body, message) => {
    const client = admin();
    await client.exposurePolicy.put(ROLLING);
    const res = await client.raw('PUT', '/exposure-policy', { body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBody('INVALID_REQUEST', message));
    expect((await client.exposurePolicy.get()).body).toEqual({ data: ROLLING });
  });

  it('audits each change as an exposurePolicy entry of the tenant, with before, after and the patch', async () => {
    const client = admin();
    await client.exposurePolicy.put(KOLKATA);
    await client.exposurePolicy.put(ROLLING);
    const res = await client.audit.search({ entityType: 'exposurePolicy' });
    expect(res.status).toBe(200);
    expect(res.body.data.entries).toEqual([
      expect.objectContaining({
        entityType: 'exposurePolicy',
        entityId: client.tenantId,
        action: 'update',
        user: 'ops@example.com',
        before: KOLKATA,
        after: ROLLING,
        changes: expect.arrayContaining([{ op: 'replace', path: '/maxActions', value: 3 }]),
      }),
      expect.objectContaining({ action: 'update', before: OFF, after: KOLKATA }),
    ]);
  });

  it('lets racing writes queue: each audits the policy it replaced, and the last one written is the policy', async () => {
    const client = admin();
    const limits = [1, 2, 3, 4, 5, 6];
    const answers = await Promise.all(
      limits.map((maxActions) => client.exposurePolicy.put({ maxActions, window: { value: 1, unit: 'days' } })),
    );
    expect(answers.map((res) => res.status)).toEqual(limits.map(() => 200));
    const entries = (await client.audit.search({ entityType: 'exposurePolicy' })).body.data.entries.reverse();
    expect(entries).toHaveLength(limits.length);
    expect(entries[0].before).toEqual(OFF);
    entries.slice(1).forEach((entry, index) => expect(entry.before).toEqual(entries[index].after));
    expect(entries.map((entry) => (entry.after as { maxActions: number }).maxActions).sort()).toEqual(limits);
    expect((await client.exposurePolicy.get()).body.data).toEqual(entries[entries.length - 1].after);
  });

  it('keeps capExempt on CTAs: false by default, set on create, kept when an update leaves it out, audited, never in the launch', async () => {
    const client = admin();
    const plain = await client.create();
    const exempt = await client.create({ capExempt: true });
    expect((await client.get(plain)).capExempt).toBe(false);
    expect((await client.get(exempt)).capExempt).toBe(true);
    await client.edit(exempt, {});
    expect((await client.get(exempt)).capExempt).toBe(true);
    await client.edit(exempt, { capExempt: false });
    expect((await client.get(exempt)).capExempt).toBe(false);
    const history = (await client.ctas.history(exempt)).body.data.entries;
    expect(history[0].changes).toEqual(expect.arrayContaining([{ op: 'replace', path: '/capExempt', value: false }]));
    for (const value of ['true', 1, null]) {
      const res = await client.update(exempt, { capExempt: value });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errorBody('INVALID_REQUEST', 'capExempt must be a boolean value'));
    }
    await client.edit(plain, { capExempt: true });
    await client.move(plain, 'live');
    const launch = await api.post('/cta/active/state-machines', undefined, {
      'x-tenant-id': client.tenantId,
      'auth-userid': '1',
      api_version: '1',
    });
    expect(launch.body.data.ctas).toHaveLength(1);
    expect(JSON.stringify(launch.body)).not.toContain('capExempt');
  });
});
