import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { MAX_WAITING_PER_USER, SDK_USER_BYTES_PER_SECOND } from '../src/http/sdk-request-limits';
import { AdminClient } from './admin-client';
import { EXAMPLE_TIME, machine, runClockAfterExamples, sdkHeaders } from './fixtures';
import { TestApp } from './harness';
import { openRequest, sendRequest } from './socket-request';

const DELTA = '/cta/state-machines/snapshot/delta/';

/**
 * One app user's turn at a time: tested over a real socket, where a request can be
 * held open half sent, or cut off. SQLite only: the gate is in front of the route, whatever the database.
 */
describe('one request per app user at a time [sqlite]', () => {
  let api: TestApp;
  let port: number;
  let tenantId: string;
  let ctaId: string;

  /** A delta of `userId` whose body is sent but for its last byte until `finish()`; `abort()` cuts the connection. */
  const open = (userId: string, body: string, extraHeaders: Record<string, string> = {}) =>
    openRequest(port, { path: DELTA, headers: { ...sdkHeaders(tenantId, userId), ...extraHeaders }, body });

  /** A whole delta of `userId`. */
  const send = (userId: string, body: string) => sendRequest(port, { path: DELTA, headers: sdkHeaders(tenantId, userId), body });

  const delta = (key: string) => JSON.stringify({ ctas: [{ ctaId, activeStateMachines: { [key]: machine('1', EXAMPLE_TIME) } }] });

  beforeAll(async () => {
    api = await TestApp.start('sqlite');
    runClockAfterExamples(api);
    await api.app.listen(0, '127.0.0.1');
    port = (api.app.getHttpServer().address() as AddressInfo).port;
    const admin = new AdminClient(api, 'gate');
    tenantId = admin.tenantId;
    ctaId = await admin.cta();
  });
  afterAll(() => api.close());

  it("lets a user's second request wait until the first is answered, and another user's pass at once", async () => {
    const first = open('1', delta('first'));
    await sleep(100);
    const second = open('1', delta('second'));
    second.finish();
    const other = await send('2', delta('other'));
    expect(other.status).toBe(200);
    await sleep(200);
    expect(second.settled()).toBe(false);
    first.finish();
    const [firstAnswer, secondAnswer] = await Promise.all([first.answer, second.answer]);
    expect([firstAnswer.status, secondAnswer.status]).toEqual([200, 200]);
    expect(secondAnswer.at).toBeGreaterThanOrEqual(firstAnswer.at);
  });

  it('hands the turn on when a request is cut off while its body is read, or while it waits', async () => {
    const cut = open('3', delta('cut'));
    await sleep(100);
    const waitingCut = open('3', delta('waiting-cut'));
    waitingCut.finish();
    const next = open('3', delta('next'));
    next.finish();
    await sleep(100);
    waitingCut.abort();
    cut.abort();
    expect((await next.answer).status).toBe(200);
    const launch = await api.post('/cta/active/state-machines/', undefined, sdkHeaders(tenantId, '3'));
    expect(Object.keys(launch.body.data.ctas[0].activeStateMachines)).toEqual(['next']);
  });

  it('hands the turn on after any answer: 413, 400, malformed headers', async () => {
    // Announced past the SDK body limit: refused before the body is read (the client sends a little of it).
    const tooLarge = open('4', '{"padding":', { 'content-length': String(1100 * 1024) });
    const refused = await Promise.all([
      tooLarge.answer,
      send('4', '{"ctas": ['),
      send('4', JSON.stringify({ ctas: [{ ctaId, activeStateMachines: { k: { currentState: 1 } } }] })),
      send('not-a-user', delta('x')),
      send('not-a-user', delta('y')),
    ]);
    expect(refused.map((answer) => answer.status)).toEqual([413, 400, 400, 400, 400]);
    expect((await send('4', delta('after'))).status).toBe(200);
  });

  it(`answers 429 with Retry-After past ${MAX_WAITING_PER_USER} waiting requests of one user, and serves the waiting ones`, async () => {
    const holder = open('5', delta('holder'));
    await sleep(100);
    const waiting = Array.from({ length: MAX_WAITING_PER_USER }, (_, index) => open('5', delta(`waiting-${index}`)));
    waiting.forEach((request) => request.finish());
    await sleep(300);
    const refused = await send('5', delta('refused'));
    expect([refused.status, refused.headers['retry-after'], JSON.parse(refused.body).error.code]).toEqual([429, '1', 'RATE_LIMITED']);
    holder.finish();
    const answers = await Promise.all([holder.answer, ...waiting.map((request) => request.answer)]);
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
  }, 30_000);

  it("paces one user's requests by the size of their bodies, not other users'", async () => {
    const large = JSON.stringify({
      ctas: [{ ctaId, activeStateMachines: { k: machine('1', EXAMPLE_TIME, { context: { note: 'x'.repeat(480 * 1024) } }) } }],
    });
    const pauseMs = (Buffer.byteLength(large) * 1000) / SDK_USER_BYTES_PER_SECOND;
    const first = await send('6', large);
    expect(first.status).toBe(200);
    const [same, other] = await Promise.all([send('6', delta('same')), send('7', delta('other'))]);
    expect([same.status, other.status]).toEqual([200, 200]);
    // The pause starts when the server ends the first turn, a moment before this client reads the
    // answer (longer on a loaded machine): half the pause still proves the pacing, since an unpaced
    // delta takes a few milliseconds.
    expect(same.at - first.at).toBeGreaterThanOrEqual(pauseMs / 2);
    expect(other.at).toBeLessThan(same.at);
  });
});
