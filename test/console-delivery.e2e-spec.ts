import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { AdminClient } from './admin-client';
import { sdkHeaders } from './fixtures';
import { eachDatabase, TestApp } from './harness';

/** The console's page and what it loads (the document is inside swagger-ui-init.js), and the document itself. */
const BUILT_ONCE = ['/docs', '/docs/', '/docs/swagger-ui-init.js', '/docs-json'];
const STATIC_ASSETS = ['/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css'];

eachDatabase('The console page: compressed, cacheable, at the root', (database) => {
  let api: TestApp;

  beforeAll(async () => {
    api = await TestApp.start(database);
  });
  afterAll(() => api.close());

  /** The raw answer (bytes and headers) of a GET, as a browser gets it. */
  const fetchRaw = (url: string, headers: Record<string, string> = {}) => api.app.inject({ method: 'GET', url, headers });

  it('leads / to the console', async () => {
    const root = await fetchRaw('/');
    expect({ status: root.statusCode, location: root.headers.location }).toEqual({ status: 302, location: '/docs' });
  });

  it('compresses the page, its assets and the document for a client that accepts it, and only then', async () => {
    for (const url of [...BUILT_ONCE, ...STATIC_ASSETS]) {
      const plain = await fetchRaw(url);
      expect({ url, status: plain.statusCode, encoding: plain.headers['content-encoding'] }).toEqual({
        url,
        status: 200,
        encoding: undefined,
      });
      const gzip = await fetchRaw(url, { 'accept-encoding': 'gzip' });
      expect({ url, encoding: gzip.headers['content-encoding'], vary: gzip.headers.vary }).toEqual({
        url,
        encoding: 'gzip',
        vary: 'accept-encoding',
      });
      expect(gunzipSync(gzip.rawPayload).equals(plain.rawPayload)).toBe(true);
      const br = await fetchRaw(url, { 'accept-encoding': 'gzip, deflate, br' });
      expect({ url, encoding: br.headers['content-encoding'] }).toEqual({ url, encoding: 'br' });
      expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
      expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    }
  });

  it('gives them validators: the same ETag while unchanged, 304 with no body when the browser has it', async () => {
    for (const url of [...BUILT_ONCE, ...STATIC_ASSETS]) {
      const first = await fetchRaw(url);
      const tag = String(first.headers.etag);
      expect({ url, tag }).toEqual({ url, tag: expect.stringMatching(/^(W\/)?"[^"]+"$/) });
      expect((await fetchRaw(url)).headers.etag).toBe(tag);
      for (const headers of [{ 'if-none-match': tag }, { 'if-none-match': `"other", ${tag}`, 'accept-encoding': 'gzip, br' }] as Record<
        string,
        string
      >[]) {
        const cached = await fetchRaw(url, headers);
        expect({ url, status: cached.statusCode, bytes: cached.rawPayload.length, encoding: cached.headers['content-encoding'] }).toEqual({
          url,
          status: 304,
          bytes: 0,
          encoding: undefined,
        });
      }
      expect((await fetchRaw(url, { 'if-none-match': '"something-else"' })).statusCode).toBe(200);
    }
  });

  it('compresses admin answers, never the SDK launch and delta (the hot path): their answers go out as built', async () => {
    const admin = new AdminClient(api, 'delivery');
    await admin.exampleCta();
    for (let index = 0; index < 5; index++) await admin.create();
    const list = await fetchRaw('/engine/ctas', { 'x-tenant-id': 'delivery', 'accept-encoding': 'gzip' });
    expect(list.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(list.rawPayload).toString()).data.totalEntries).toBe(6);

    for (const url of ['/cta/active/state-machines', '/cta/state-machines/snapshot/delta']) {
      const sdk = await api.app.inject({
        method: 'POST',
        url,
        headers: { ...sdkHeaders('delivery', '42'), 'accept-encoding': 'gzip, deflate, br' },
      });
      expect({ url, status: sdk.statusCode, encoding: sdk.headers['content-encoding'], vary: sdk.headers.vary }).toEqual({
        url,
        status: 200,
        encoding: undefined,
        vary: undefined,
      });
    }
    const launch = await api.app.inject({
      method: 'POST',
      url: '/cta/active/state-machines',
      headers: { ...sdkHeaders('delivery', '42'), 'accept-encoding': 'gzip' },
    });
    // Big enough that it would have been compressed (from 1 KB up) on any other route.
    expect(launch.rawPayload.length).toBeGreaterThan(1024);
    expect(JSON.parse(launch.body).data.ctas).toHaveLength(1);
  });
});
