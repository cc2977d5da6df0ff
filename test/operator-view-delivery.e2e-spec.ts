import { brotliDecompressSync } from 'node:zlib';
import { TestApp } from './harness';

/**
 * The operator view's files (built by `npm run build:ui`, which `npm test` runs first) as the service serves
 * them: under every admin prefix and alias, without a key, with validators and compression; and `GET /whoami`,
 * which tells the view what the key may change. No database is involved: SQLite alone.
 */
const KEYS = 'vera:viewer:k-vera,eddie:editor:k-eddie,paula:publisher:k-paula,ada:admin:k-ada';

describe('The operator view: its files and whoami', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await TestApp.start('sqlite', { ADMIN_API_KEYS: KEYS, ADMIN_PREFIX_ALIASES: 'thunder,/' });
  });
  afterAll(() => api.close());

  const fetchRaw = (url: string, headers: Record<string, string> = {}) => api.app.inject({ method: 'GET', url, headers });

  /** The page and the assets it names (relative paths, so they resolve under any prefix; '' is the root alias `/`). */
  async function pageAndAssets(prefix: string): Promise<string[]> {
    const base = prefix === '' ? '' : `/${prefix}`;
    const page = await fetchRaw(`${base}/ui/`);
    expect({ status: page.statusCode, type: page.headers['content-type'] }).toEqual({ status: 200, type: 'text/html; charset=utf-8' });
    const assets = [...page.body.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((match) => `${base}/ui/${match[1]}`);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    return [`${base}/ui/`, ...assets];
  }

  it('serves the page and its assets under the admin prefix and every alias (the root one too), without a key', async () => {
    for (const prefix of ['engine', 'thunder', '']) {
      for (const url of await pageAndAssets(prefix)) {
        expect({ url, status: (await fetchRaw(url)).statusCode }).toEqual({ url, status: 200 });
      }
    }
  });

  it('leads /{admin}/ui to /{admin}/ui/ (the assets are relative to it), and answers 404 for a file it does not have', async () => {
    const bare = await fetchRaw('/engine/ui');
    expect({ status: bare.statusCode, location: bare.headers.location }).toEqual({ status: 302, location: '/engine/ui/' });
    expect((await fetchRaw('/engine/ui/assets/nothing.js')).statusCode).toBe(404);
  });

  it('gives every file an ETag (304 when the browser has it), revalidates the page, caches the content-named assets for good', async () => {
    const [page, ...assets] = await pageAndAssets('engine');
    for (const url of [page, ...assets]) {
      const first = await fetchRaw(url);
      const tag = String(first.headers.etag);
      expect(tag).toMatch(/^"[^"]+"$/);
      expect(first.headers['cache-control']).toBe(url === page ? 'no-cache' : 'public, max-age=31536000, immutable');
      const cached = await fetchRaw(url, { 'if-none-match': tag, 'accept-encoding': 'br' });
      expect({ url, status: cached.statusCode, bytes: cached.rawPayload.length }).toEqual({ url, status: 304, bytes: 0 });
    }
  });

  it('compresses the files, and the first load (page and assets) stays under 300 KB compressed', async () => {
    let total = 0;
    for (const url of await pageAndAssets('engine')) {
      const plain = await fetchRaw(url);
      const br = await fetchRaw(url, { 'accept-encoding': 'gzip, deflate, br' });
      if (plain.rawPayload.length >= 1024) {
        expect({ url, encoding: br.headers['content-encoding'] }).toEqual({ url, encoding: 'br' });
        expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
      }
      total += br.rawPayload.length;
    }
    expect(total).toBeLessThan(300 * 1024);
  });

  it('sends a Content-Security-Policy without upgrade-insecure-requests (the view works over plain HTTP from another host)', async () => {
    const csp = String((await fetchRaw('/engine/ui/')).headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
  });

  it('whoami: the key, its role and the writes the role may make; 401 without a key', async () => {
    const whoami = async (key: string) => (await api.get('/engine/whoami', { 'x-api-key': key })).body;
    expect(await whoami('k-vera')).toEqual({
      data: {
        tenantId: 'default',
        name: 'vera',
        role: 'viewer',
        user: 'vera',
        approvalsRequired: false,
        may: { update: false, changeStatus: false, approve: false, restore: false, exportUser: false, eraseUser: false },
      },
    });
    expect((await whoami('k-eddie')).data.may).toEqual({
      update: true,
      changeStatus: false,
      approve: false,
      restore: false,
      exportUser: false,
      eraseUser: false,
    });
    expect((await whoami('k-paula')).data.may).toEqual({
      update: true,
      changeStatus: true,
      approve: true,
      restore: true,
      exportUser: false,
      eraseUser: false,
    });
    expect((await whoami('k-ada')).data).toMatchObject({ name: 'ada', role: 'admin', may: { exportUser: true, eraseUser: true } });
    const refused = await api.get('/thunder/whoami');
    expect({ status: refused.status, code: refused.body.error.code }).toEqual({ status: 401, code: 'UNAUTHORIZED' });
  });
});

describe('whoami of an open admin API (no ADMIN_API_KEYS)', () => {
  it('names who a write without a user header is recorded as: ADMIN_DEFAULT_USER, else nobody (the view then asks)', async () => {
    for (const [env, user] of [
      [{ ADMIN_DEFAULT_USER: 'panel@example.com' }, 'panel@example.com'],
      [{}, null],
    ] as const) {
      const api = await TestApp.start('sqlite', env);
      try {
        expect((await api.get('/engine/whoami')).body.data).toMatchObject({ name: null, role: null, user });
      } finally {
        await api.close();
      }
    }
  });
});
