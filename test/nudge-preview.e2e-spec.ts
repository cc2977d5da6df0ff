import { PeriodicJobsService } from '../src/scheduling/periodic-jobs.service';
import { dataSourceOf } from './database-contents';
import { eachDatabase, errorBody, TestApp } from './harness';

const ADMIN = '/engine/nudge/preview/';
const sdkPath = (id: string): string => `/cta/nudge/preview/${encodeURIComponent(id)}`;

eachDatabase('nudge previews', (database) => {
  let api: TestApp;
  let sequence = 0;
  const tenant = (): Record<string, string> => ({ 'x-tenant-id': `previews-${++sequence}` });

  beforeAll(async () => {
    api = await TestApp.start(database);
  });
  afterAll(() => api.close());

  const storedRows = async (tenantId: string): Promise<number> => {
    const dataSource = dataSourceOf(api);
    const [{ count }] = await dataSource.query('SELECT COUNT(*) AS count FROM nudge_previews WHERE tenant_id = ?', [tenantId]);
    return Number(count);
  };

  it('stores a preview (data null) that the SDK reads with its tenant and ttl', async () => {
    const headers = tenant();
    const written = await api.post(ADMIN, { id: 'banner', template: '<b>Hi</b>', ttl: 60 }, headers);
    expect(written).toMatchObject({ status: 200, body: { data: null } });
    const read = await api.get(sdkPath('banner'), headers);
    expect(read).toMatchObject({ status: 200 });
    expect(read.body).toEqual({ data: { id: 'banner', template: '<b>Hi</b>', tenantId: headers['x-tenant-id'], ttl: 60 } });
  });

  it('defaults ttl to 3600 when absent or null, and expires at write time + ttl', async () => {
    const headers = tenant();
    await api.post(ADMIN, { id: 'absent', template: 't' }, headers);
    await api.post(ADMIN, { id: 'null', template: 't', ttl: null }, headers);
    await api.post(ADMIN, { id: 'short', template: 't', ttl: 1 }, headers);
    expect((await api.get(sdkPath('absent'), headers)).body.data.ttl).toBe(3600);
    expect((await api.get(sdkPath('null'), headers)).body.data.ttl).toBe(3600);

    // The test clock runs with real time too: margins, not exact milliseconds.
    api.clock.advance(800);
    expect((await api.get(sdkPath('short'), headers)).body.data).toMatchObject({ id: 'short', ttl: 1 });
    api.clock.advance(300);
    expect(await api.get(sdkPath('short'), headers)).toMatchObject({ status: 200, body: { data: null } });

    api.clock.advance(3598 * 1000 - 1100);
    expect((await api.get(sdkPath('absent'), headers)).body.data).not.toBeNull();
    api.clock.advance(2000);
    expect((await api.get(sdkPath('absent'), headers)).body).toEqual({ data: null });
  });

  it('upserts by id: a new write replaces template and ttl and restarts the clock', async () => {
    const headers = tenant();
    await api.post(ADMIN, { id: 'p', template: 'old', ttl: 10 }, headers);
    api.clock.advance(9_000);
    await api.post(ADMIN, { id: 'p', template: 'new', ttl: 20 }, headers);
    api.clock.advance(15_000);
    expect((await api.get(sdkPath('p'), headers)).body.data).toMatchObject({ template: 'new', ttl: 20 });
    expect(await storedRows(headers['x-tenant-id'])).toBe(1);
  });

  it('answers data null for an unknown id', async () => {
    expect(await api.get(sdkPath('never-written'), tenant())).toMatchObject({ status: 200, body: { data: null } });
  });

  it('URL-decodes the id and compares it exactly', async () => {
    const headers = tenant();
    const id = 'promo/spring sale ✓';
    await api.post(ADMIN, { id, template: 'x' }, headers);
    expect((await api.get(sdkPath(id), headers)).body.data).toMatchObject({ id });
    expect((await api.get(sdkPath('PROMO/SPRING SALE ✓'), headers)).body).toEqual({ data: null });
    expect((await api.get(sdkPath(`${id} `), headers)).body).toEqual({ data: null });
  });

  it('serves an id of 255 characters, far longer once percent-encoded', async () => {
    const headers = tenant();
    const id = '✓'.repeat(255);
    expect(sdkPath(id).length).toBeGreaterThan(2000);
    expect((await api.post(ADMIN, { id, template: 't' }, headers)).status).toBe(200);
    expect((await api.get(sdkPath(id), headers)).body.data).toMatchObject({ id, template: 't' });
  });

  it('round-trips a 100 KB template with emoji and markup', async () => {
    const headers = tenant();
    const template = `<div class="nudge">${'Spring sale 🌸🎉 — 50% off "today" <i>only</i>\n'.repeat(1900)}</div>`;
    expect(Buffer.byteLength(template)).toBeGreaterThan(100_000);
    expect((await api.post(ADMIN, { id: 'big', template }, headers)).status).toBe(200);
    expect((await api.get(sdkPath('big'), headers)).body.data.template).toBe(template);
  });

  it.each([
    ['a missing id', { template: 't' }, 'id must not be null or empty'],
    ['a null id', { id: null, template: 't' }, 'id must not be null or empty'],
    ['an empty id', { id: '', template: 't' }, 'id must not be null or empty'],
    ['a blank id', { id: '  ', template: 't' }, 'id must not be null or empty'],
    ['a missing template', { id: 'p' }, 'template must not be null or empty'],
    ['a null template', { id: 'p', template: null }, 'template must not be null or empty'],
    ['an empty template', { id: 'p', template: '' }, 'template must not be null or empty'],
  ])('answers NUDGE_PREVIEW_TEMPLATE_NOT_FOUND_EXCEPTION for %s, writing nothing', async (_case, body, message) => {
    const headers = tenant();
    const response = await api.post(ADMIN, body, headers);
    expect(response).toMatchObject({ status: 400, body: errorBody('NUDGE_PREVIEW_TEMPLATE_NOT_FOUND_EXCEPTION', message) });
    expect(await storedRows(headers['x-tenant-id'])).toBe(0);
  });

  it.each([
    ['ttl 0', { id: 'p', template: 't', ttl: 0 }, /^ttl must not be less than 1/],
    ['a negative ttl', { id: 'p', template: 't', ttl: -5 }, /^ttl must not be less than 1/],
    ['a ttl over 30 days', { id: 'p', template: 't', ttl: 2_592_001 }, /^ttl must not be greater than 2592000/],
    ['a fractional ttl', { id: 'p', template: 't', ttl: 1.5 }, /^ttl must be an integer/],
    ['a ttl as a string', { id: 'p', template: 't', ttl: '60' }, /^ttl must be an integer/],
    ['a numeric id', { id: 5, template: 't' }, /^id must be a string/],
    ['an id of 256 characters', { id: 'i'.repeat(256), template: 't' }, /^id must be shorter than or equal to 255/],
    ['a template that is an object', { id: 'p', template: { html: 'x' } }, /^template must be a string/],
  ])('answers INVALID_REQUEST for %s, writing nothing', async (_case, body, message) => {
    const headers = tenant();
    const response = await api.post(ADMIN, body, headers);
    expect(response).toMatchObject({ status: 400, body: errorBody('INVALID_REQUEST', expect.stringMatching(message)) });
    expect(await storedRows(headers['x-tenant-id'])).toBe(0);
  });

  it('rejects malformed JSON and a malformed tenant on both sides', async () => {
    expect(await api.post(ADMIN, '{"id": "p", ', tenant())).toMatchObject({ status: 400, body: errorBody('INVALID_REQUEST') });
    expect(await api.post(ADMIN, { id: 'p', template: 't' }, { 'x-tenant-id': '../etc' })).toMatchObject({
      status: 400,
      body: errorBody('INVALID_REQUEST'),
    });
    expect(await api.get(sdkPath('p'), { 'x-tenant-id': 'a b' })).toMatchObject({ status: 400, body: errorBody('INVALID_REQUEST') });
  });

  it('keeps tenants apart, and uses the default tenant without x-tenant-id', async () => {
    const one = tenant();
    const two = tenant();
    await api.post(ADMIN, { id: 'same', template: 'one' }, one);
    await api.post(ADMIN, { id: 'same', template: 'two' }, two);
    expect((await api.get(sdkPath('same'), one)).body.data).toMatchObject({ template: 'one', tenantId: one['x-tenant-id'] });
    expect((await api.get(sdkPath('same'), two)).body.data).toMatchObject({ template: 'two', tenantId: two['x-tenant-id'] });
    expect((await api.get(sdkPath('same'))).body).toEqual({ data: null });
    await api.post(ADMIN, { id: 'default-one', template: 'd' });
    expect((await api.get(sdkPath('default-one'), { 'x-tenant-id': 'default' })).body.data).toMatchObject({ tenantId: 'default' });
  });

  it('survives racing writes of one id: all succeed, one preview remains', async () => {
    const headers = tenant();
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, index) => api.post(ADMIN, { id: 'raced', template: `t${index}` }, headers)),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(12).fill(200));
    expect(await storedRows(headers['x-tenant-id'])).toBe(1);
  });

  it('purges expired previews in the periodic job, idempotently, and keeps live ones', async () => {
    const headers = tenant();
    await api.post(ADMIN, { id: 'expiring', template: 't', ttl: 5 }, headers);
    await api.post(ADMIN, { id: 'lasting', template: 't', ttl: 3600 }, headers);
    const jobs = api.service(PeriodicJobsService);
    await jobs.runAll();
    expect(await storedRows(headers['x-tenant-id'])).toBe(2);
    api.clock.advance(5_000);
    await jobs.runAll();
    await jobs.runAll();
    expect(await storedRows(headers['x-tenant-id'])).toBe(1);
    expect((await api.get(sdkPath('lasting'), headers)).body.data).toMatchObject({ id: 'lasting' });
  });
});
