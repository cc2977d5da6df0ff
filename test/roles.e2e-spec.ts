import { ctaBody, examples } from './fixtures';
import { eachDatabase, errorBody, TestApp } from './harness';

type Role = 'viewer' | 'editor' | 'publisher' | 'admin';

const KEYS: Record<Role, { name: string; key: string }> = {
  viewer: { name: 'vic', key: 'viewer-key' },
  editor: { name: 'ed', key: 'editor-key' },
  publisher: { name: 'pub', key: 'publisher-key' },
  admin: { name: 'ada', key: 'admin-key' },
};
const ROLES = Object.keys(KEYS) as Role[];
/** What each role may do, written out independently of the implementation (docs/decisions/0010-roles-keys-and-tokens.md). */
const ALLOWS: Record<Role, Role[]> = {
  viewer: ['viewer'],
  editor: ['viewer', 'editor'],
  publisher: ['viewer', 'editor', 'publisher'],
  admin: ['viewer', 'editor', 'publisher', 'admin'],
};

interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  needs: Role;
  body?: unknown;
}

/** Each kind of admin route, with the role it needs. Bodies are invalid on purpose: an admitted request stops at validation. */
const ROUTES: Route[] = [
  { method: 'GET', path: '/engine/ctas', needs: 'viewer' },
  { method: 'GET', path: '/engine/ctas/1', needs: 'viewer' },
  { method: 'GET', path: '/engine/filters', needs: 'viewer' },
  { method: 'GET', path: '/engine/behaviour-tags', needs: 'viewer' },
  { method: 'GET', path: '/engine/events', needs: 'viewer' },
  { method: 'GET', path: '/engine/events/list/names', needs: 'viewer' },
  { method: 'GET', path: '/engine/events/e', needs: 'viewer' },
  { method: 'GET', path: '/engine/audit', needs: 'viewer' },
  { method: 'GET', path: '/engine/ctas/1/history', needs: 'viewer' },
  { method: 'GET', path: '/engine/behaviour-tags/t/history', needs: 'viewer' },
  { method: 'GET', path: '/engine/ctas/1/insights', needs: 'viewer' },
  { method: 'GET', path: '/engine/insights', needs: 'viewer' },
  { method: 'GET', path: '/engine/cohort-names?userId=ops', needs: 'viewer' },
  { method: 'GET', path: '/engine/exposure-policy', needs: 'viewer' },
  { method: 'POST', path: '/engine/ctas', needs: 'editor', body: {} },
  { method: 'PUT', path: '/engine/ctas/1', needs: 'editor', body: {} },
  { method: 'POST', path: '/engine/ctas/validate', needs: 'editor', body: [] },
  { method: 'POST', path: '/engine/ctas/test/create', needs: 'editor', body: {} },
  { method: 'DELETE', path: '/engine/ctas/test/1', needs: 'editor' },
  { method: 'POST', path: '/engine/behaviour-tags', needs: 'editor', body: {} },
  { method: 'PUT', path: '/engine/behaviour-tags/t', needs: 'editor', body: {} },
  { method: 'POST', path: '/engine/events', needs: 'editor', body: {} },
  { method: 'PUT', path: '/engine/events/e', needs: 'editor', body: {} },
  { method: 'DELETE', path: '/engine/events/e', needs: 'editor' },
  { method: 'POST', path: '/engine/nudge/preview', needs: 'editor', body: {} },
  { method: 'PUT', path: '/engine/ctas/1/live', needs: 'publisher' },
  { method: 'PUT', path: '/engine/ctas/1/terminate', needs: 'publisher' },
  { method: 'POST', path: '/engine/ctas/1/restore/1', needs: 'publisher' },
  { method: 'GET', path: '/engine/app-users/1', needs: 'admin' },
  { method: 'DELETE', path: '/engine/app-users/1', needs: 'admin' },
  { method: 'PUT', path: '/engine/exposure-policy', needs: 'admin', body: {} },
];

eachDatabase('operator roles', (database) => {
  let api: TestApp;
  beforeAll(async () => {
    const entries = ROLES.map((role) => `${KEYS[role].name}:${role}:${KEYS[role].key}`);
    api = await TestApp.start(database, { ADMIN_API_KEYS: ['bare-key', ...entries].join(','), ADMIN_PREFIX_ALIASES: 'thunder' });
  });
  afterAll(() => api.close());

  const cases = ROLES.flatMap((role) => ROUTES.map((route) => [role, `${route.method} ${route.path}`, route] as const));

  it.each(cases)('a %s key on %s', async (role, _, route) => {
    // No tenant or user header problems are looked at before the key and its role.
    const headers = { 'x-api-key': KEYS[role].key, 'x-tenant-id': 'not a valid tenant!' };
    const res = await api.request(route.method, route.path, { body: route.body, headers });
    if (ALLOWS[role].includes(route.needs)) {
      expect(res.status).toBe(400);
      expect(res.body.error.code).not.toBe('FORBIDDEN');
    } else {
      expect(res.status).toBe(403);
      expect(res.body).toEqual(
        errorBody('FORBIDDEN', `the key '${KEYS[role].name}' has the role ${role}; this route needs ${route.needs}`),
      );
    }
  });

  it('applies the roles under the alias prefixes too', async () => {
    const res = await api.post('/thunder/ctas', ctaBody(), { 'x-api-key': KEYS.viewer.key });
    expect(res.body).toEqual(errorBody('FORBIDDEN', "the key 'vic' has the role viewer; this route needs editor"));
  });

  it('still answers UNAUTHORIZED to a wrong key, whatever the route', async () => {
    expect((await api.get('/engine/ctas', { 'x-api-key': 'wrong' })).body).toEqual(errorBody('UNAUTHORIZED'));
  });

  it('lets an editor edit but not go live, a viewer only read, and names each key as the actor of its changes', async () => {
    const tenant = 'roles-flow';
    const as = (role: Role | 'bare') => ({
      'x-tenant-id': tenant,
      user: 'ops@example.com',
      'x-api-key': role === 'bare' ? 'bare-key' : KEYS[role].key,
    });
    const created = await api.post('/engine/ctas', ctaBody(), as('editor'));
    expect(created.status).toBe(200);
    const id = created.body.data;
    expect((await api.put(`/engine/ctas/${id}`, { ...ctaBody({ team: 'store' }), name: undefined }, as('editor'))).status).toBe(200);
    expect((await api.put(`/engine/ctas/${id}/live`, undefined, as('editor'))).body).toEqual(
      errorBody('FORBIDDEN', "the key 'ed' has the role editor; this route needs publisher"),
    );
    expect((await api.put(`/engine/ctas/${id}/live`, undefined, as('publisher'))).status).toBe(200);
    expect((await api.put(`/engine/ctas/${id}/pause`, undefined, as('bare'))).status).toBe(200);
    expect(
      (await api.post('/engine/ctas/test/create', { userIds: [1], expiresInMinutes: 5, rule: examples.rule() }, as('viewer'))).status,
    ).toBe(403);
    expect((await api.get(`/engine/ctas/${id}`, as('viewer'))).status).toBe(200);

    const history = await api.get(`/engine/ctas/${id}/history`, as('viewer'));
    expect(history.body.data.entries.map((entry: any) => [entry.action, entry.actor])).toEqual([
      ['pause', 'key-1'],
      ['live', 'pub'],
      ['update', 'ed'],
      ['create', 'ed'],
    ]);
    const byActor = await api.get('/engine/audit?actor=ed', as('viewer'));
    expect(byActor.body.data.totalEntries).toBe(2);
  });

  it("takes the key's name as the user when the header is absent (newer admin panel builds send none)", async () => {
    const headers = { 'x-api-key': KEYS.editor.key, 'x-tenant-id': 'roles-user' };
    const res = await api.post('/engine/ctas', ctaBody(), headers);
    expect((await api.get(`/engine/ctas/${res.body.data}`, headers)).body.data.createdBy).toBe('ed');
  });
});
