import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { LARGE_BODY_BYTES } from '../src/http/large-body-lane';
import { AdminClient } from './admin-client';
import { EXAMPLE_TIME, machine, runClockAfterExamples, sdkHeaders } from './fixtures';
import { TestApp } from './harness';
import { type OpenRequest, openRequest, sendRequest, type SocketAnswer } from './socket-request';

const DELTA = '/cta/state-machines/snapshot/delta/';
const LAUNCH = '/cta/active/state-machines/';
const PREVIEW = '/engine/nudge/preview/';
/** Two slots where the machine has two cores (the lane never has more slots than cores). */
const SLOTS = Math.min(2, availableParallelism());
/** Long enough never to run out here (the wait bound itself: src/common/slot-gate.spec.ts); Retry-After is its seconds. */
const MAX_WAIT_MS = 60_000;

/**
 * The large-body lane, over real sockets where a large request can be held half sent: its slot
 * stays taken until it is answered. SQLite only: the lane is in front of every route, whatever the
 * database. Deterministic: requests are held and released by the test, never timed.
 */
describe('a lane of its own for large bodies [sqlite]', () => {
  let api: TestApp;
  let port: number;
  let tenants = 0;
  const tenant = () => new AdminClient(api, `lane-${++tenants}`);
  /** Requests a test left open (it failed halfway): cut off after it. */
  const opened: OpenRequest[] = [];
  const open = (options: Parameters<typeof openRequest>[1]): OpenRequest => {
    const request = openRequest(port, options);
    opened.push(request);
    return request;
  };

  /** A nudge preview of tenant `admin` whose body is over LARGE_BODY_BYTES. */
  const largePreview = (admin: AdminClient, chunked = false) => ({
    path: PREVIEW,
    headers: admin.headers(),
    body: JSON.stringify({ id: `large-${tenants}`, template: 'x'.repeat(LARGE_BODY_BYTES + 1024), ttl: 60 }),
    chunked,
  });
  /** Resolves once the lane has `holding` requests in its slots and `waiting` waiting (as /metrics reports them). */
  const laneIs = async (holding: number, waiting: number): Promise<void> => {
    const expected = [holding, waiting].join();
    let seen = '';
    for (let attempt = 0; attempt < 500; attempt++) {
      const text = String((await api.get('/metrics')).body);
      const count = (state: string) => new RegExp(`^cta_large_body_lane_requests\\{state="${state}"\\} (\\d+)$`, 'm').exec(text)?.[1];
      seen = [count('holding'), count('waiting')].join();
      if (seen === expected) return;
      await sleep(20);
    }
    throw new Error(`the lane holds and waits ${seen}, not ${expected}`);
  };
  /** Holds every slot of the lane with a large preview of a tenant of its own, sent but for its last byte. */
  const holdAllSlots = async () => {
    const holders = Array.from({ length: SLOTS }, () => open(largePreview(tenant())));
    await laneIs(SLOTS, 0);
    return holders;
  };
  const errorOf = (answer: SocketAnswer) => [answer.status, answer.headers['retry-after'], JSON.parse(answer.body).error?.code];

  beforeAll(async () => {
    api = await TestApp.start('sqlite', {
      LARGE_BODY_SLOTS: String(SLOTS),
      LARGE_BODY_MAX_WAITING: '2',
      LARGE_BODY_MAX_WAIT_MS: String(MAX_WAIT_MS),
    });
    runClockAfterExamples(api);
    await api.app.listen(0, '127.0.0.1');
    port = (api.app.getHttpServer().address() as AddressInfo).port;
  });
  afterEach(async () => {
    opened.splice(0).forEach((request) => request.settled() || request.abort());
    // A slot is handed on after a pause (up to 2 s): the next test starts with the lane empty.
    await laneIs(0, 0);
  });
  afterAll(() => api.close());

  it('lets a large body wait while the lane is full, small requests pass meanwhile, and serves it once a slot frees', async () => {
    const admin = tenant();
    const ctaId = await admin.cta();
    const holders = await holdAllSlots();
    // Large, announced, and a device's large delta: both wait, their bodies unread.
    const waiting = open({
      path: DELTA,
      headers: sdkHeaders(admin.tenantId, '1'),
      body: JSON.stringify({
        ctas: [{ ctaId, activeStateMachines: { large: machine('1', EXAMPLE_TIME, { context: { note: 'x'.repeat(LARGE_BODY_BYTES) } }) } }],
      }),
    });
    waiting.finish();
    await laneIs(SLOTS, 1);
    // Small requests of every kind never wait behind large ones.
    const small = await Promise.all([
      sendRequest(port, { path: LAUNCH, headers: sdkHeaders(admin.tenantId, '2'), body: '{}' }),
      sendRequest(port, {
        path: DELTA,
        headers: sdkHeaders(admin.tenantId, '2'),
        body: JSON.stringify({ ctas: [{ ctaId, activeStateMachines: { small: machine('1', EXAMPLE_TIME) } }] }),
      }),
      sendRequest(port, { path: PREVIEW, headers: admin.headers(), body: JSON.stringify({ id: 'small', template: 'x', ttl: 60 }) }),
      sendRequest(port, { method: 'GET', path: '/health', headers: {}, body: '' }),
    ]);
    expect(small.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(waiting.settled()).toBe(false);
    holders[0].finish();
    expect((await holders[0].answer).status).toBe(200);
    const served = await waiting.answer;
    expect([served.status, served.body]).toEqual([200, '{"data":true}']);
    holders.slice(1).forEach((holder) => holder.finish());
    expect((await Promise.all(holders.map((holder) => holder.answer))).map((answer) => answer.status)).toEqual(holders.map(() => 200));
    // The waiting delta was merged whole.
    const launched = await sendRequest(port, { path: LAUNCH, headers: sdkHeaders(admin.tenantId, '1'), body: '{}' });
    expect(Object.keys(JSON.parse(launched.body).data.ctas[0].activeStateMachines)).toEqual(['large']);
  });

  it('counts a chunked body as it is read: past LARGE_BODY_BYTES it waits for the lane, then is read to its end', async () => {
    const holders = await holdAllSlots();
    const admin = tenant();
    const chunked = open(largePreview(admin, true));
    chunked.finish();
    await laneIs(SLOTS, 1);
    expect((await sendRequest(port, { method: 'GET', path: '/health', headers: {}, body: '' })).status).toBe(200);
    expect(chunked.settled()).toBe(false);
    holders[0].finish();
    const [held, served] = await Promise.all([holders[0].answer, chunked.answer]);
    expect([held.status, served.status]).toEqual([200, 200]);
    // Read to its end: the preview stored is the whole template.
    const stored = await sendRequest(port, {
      method: 'GET',
      path: `/cta/nudge/preview/large-${tenants}`,
      headers: admin.headers(),
      body: '',
    });
    expect(JSON.parse(stored.body).data.template).toHaveLength(LARGE_BODY_BYTES + 1024);
    holders.slice(1).forEach((holder) => holder.finish());
    await Promise.all(holders.map((holder) => holder.answer));
  });

  it('answers 503 with Retry-After in the error envelope past the waiting bound, announced or chunked', async () => {
    const holders = await holdAllSlots();
    const waiting = [open(largePreview(tenant())), open(largePreview(tenant()))];
    waiting.forEach((request) => request.finish());
    await laneIs(SLOTS, 2);
    // Two wait already (LARGE_BODY_MAX_WAITING=2): one more is refused at once, announced or chunked.
    const refused = await Promise.all([sendRequest(port, largePreview(tenant())), sendRequest(port, largePreview(tenant(), true))]);
    expect(refused.map(errorOf)).toEqual([
      [503, '60', 'SERVICE_UNAVAILABLE'],
      [503, '60', 'SERVICE_UNAVAILABLE'],
    ]);
    holders.forEach((holder) => holder.finish());
    const answers = await Promise.all([...holders, ...waiting].map((request) => request.answer));
    expect(answers.map((answer) => answer.status)).toEqual([...holders, ...waiting].map(() => 200));
  });

  (SLOTS >= 2 ? it : it.skip)(
    'has at most one large body of a tenant in the lane: its next waits while another tenant passes',
    async () => {
      const admin = tenant();
      const first = open(largePreview(admin));
      await laneIs(1, 0);
      const second = open(largePreview(admin));
      second.finish();
      await laneIs(1, 1);
      const other = await sendRequest(port, largePreview(tenant()));
      expect(other.status).toBe(200);
      expect(second.settled()).toBe(false);
      first.finish();
      expect((await Promise.all([first.answer, second.answer])).map((answer) => answer.status)).toEqual([200, 200]);
    },
  );

  it('hands the slot on when a large request is cut off while it is read, or while it waits', async () => {
    const holders = await holdAllSlots();
    const waitingCut = open(largePreview(tenant()));
    await laneIs(SLOTS, 1);
    // Its socket is not read while it waits, so the cut is seen when its turn comes: it hands on at once.
    waitingCut.abort();
    const next = open(largePreview(tenant()));
    next.finish();
    await laneIs(SLOTS, 2);
    holders[0].abort();
    expect((await next.answer).status).toBe(200);
    holders.slice(1).forEach((holder) => holder.finish());
    await Promise.all(holders.slice(1).map((holder) => holder.answer));
  });
});
