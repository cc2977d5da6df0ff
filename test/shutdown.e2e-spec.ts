import { Agent, get } from 'node:http';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { CtaListingService } from '../src/ctas/cta-listing.service';
import { dataSourceOf } from './database-contents';
import { eachDatabase, TestApp } from './harness';

/** How long the slow request stays in its handler: long enough to close the app meanwhile. */
const SLOW_MS = 1500;

/** Whether a new TCP connection to the port is refused (true) or accepted (false). */
const refused = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });

eachDatabase('graceful shutdown', (database) => {
  afterEach(() => jest.restoreAllMocks());

  it('stops accepting connections, finishes the request in flight, then closes the database pool', async () => {
    const api = await TestApp.start(database);
    await api.app.listen(0, '127.0.0.1');
    const port = (api.app.getHttpServer().address() as { port: number }).port;
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/health`, { headers: { connection: 'close' } })).status).toBe(200);
    expect(await refused(port)).toBe(false);

    // A slow request: the real filter values, after a pause inside the handler.
    let entered!: () => void;
    let handlerDoneAt = Number.POSITIVE_INFINITY;
    const inHandler = new Promise<void>((resolve) => (entered = resolve));
    const filterValues = CtaListingService.prototype.filterValues;
    jest.spyOn(CtaListingService.prototype, 'filterValues').mockImplementation(async function (this: CtaListingService, tenantId: string) {
      entered();
      await sleep(SLOW_MS);
      const values = await filterValues.call(this, tenantId);
      handlerDoneAt = Date.now();
      return values;
    });
    const startedAt = Date.now();
    const slow = fetch(`${base}/engine/filters`, { headers: { connection: 'close' } }).then(async (response) => ({
      status: response.status,
      body: await response.json(),
      finishedAt: Date.now(),
    }));
    await inHandler;

    const closing = api.close().then(() => Date.now());
    // New connections are refused while the slow request is still being served.
    let refusedAt: number | null = null;
    while (refusedAt === null && Date.now() - startedAt < SLOW_MS) {
      if (await refused(port)) {
        refusedAt = Date.now();
      } else {
        await sleep(20);
      }
    }

    const answer = await slow;
    const closedAt = await closing;
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: { names: [], teams: [], tags: [], createdBy: [] } });
    expect(refusedAt).not.toBeNull();
    expect(refusedAt!).toBeLessThan(answer.finishedAt);
    expect(answer.finishedAt - startedAt).toBeGreaterThanOrEqual(SLOW_MS - 50);
    // The pool closes only after the handler is done with it.
    expect(closedAt).toBeGreaterThanOrEqual(handlerDoneAt);
    expect(dataSourceOf(api).isInitialized).toBe(false);
  });

  it('serves a request that arrives during the drain on a connection still open, with the usual envelope', async () => {
    const api = await TestApp.start(database);
    await api.app.listen(0, '127.0.0.1');
    const port = (api.app.getHttpServer().address() as { port: number }).port;
    let entered!: () => void;
    const inHandler = new Promise<void>((resolve) => (entered = resolve));
    const filterValues = CtaListingService.prototype.filterValues;
    jest.spyOn(CtaListingService.prototype, 'filterValues').mockImplementationOnce(async function (
      this: CtaListingService,
      tenantId: string,
    ) {
      entered();
      await sleep(SLOW_MS);
      return filterValues.call(this, tenantId);
    });
    // One keep-alive connection: the second request waits for the first, and is sent while the app closes.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const request = (path: string) =>
      new Promise<{ status: number; body: unknown }>((resolve, reject) =>
        get({ port, host: '127.0.0.1', path, agent }, (response) => {
          let text = '';
          response.on('data', (chunk) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode as number, body: JSON.parse(text) }));
        }).on('error', reject),
      );
    const first = request('/engine/filters');
    const second = request('/engine/ctas/not-a-number');
    await inHandler;
    const closing = api.close();
    expect(await first).toMatchObject({ status: 200 });
    expect(await second).toEqual({ status: 400, body: { error: { code: 'CTA_ID_INVALID', message: expect.any(String) } } });
    await closing;
    agent.destroy();
  });
});
