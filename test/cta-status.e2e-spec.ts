import { AdminClient } from './admin-client';
import { PeriodicJobsService } from '../src/scheduling/periodic-jobs.service';
import { eachDatabase, errorBody, TestApp } from './harness';

type Status = 'draft' | 'paused' | 'live' | 'scheduled' | 'concluded' | 'terminated';
type Action = 'live' | 'pause' | 'schedule' | 'conclude' | 'terminate';

const HOUR = 60 * 60 * 1000;

/** The expected table (docs/decisions/0002-status-lifecycle-and-live-edits.md), written out independently of the implementation's. */
const ALLOWED: Record<Action, { from: Status[]; to: Status }> = {
  live: { from: ['draft', 'paused'], to: 'live' },
  pause: { from: ['live', 'scheduled'], to: 'paused' },
  schedule: { from: ['draft', 'paused'], to: 'scheduled' },
  conclude: { from: ['live', 'paused'], to: 'concluded' },
  terminate: { from: ['draft', 'live', 'paused', 'scheduled'], to: 'terminated' },
};

/** How to bring a new CTA (with a future startTime) into each status through the API. */
const PATH_TO: Record<Status, Action[]> = {
  draft: [],
  paused: ['live', 'pause'],
  live: ['live'],
  scheduled: ['schedule'],
  concluded: ['live', 'conclude'],
  terminated: ['terminate'],
};

eachDatabase('CTA status', (database) => {
  let api: TestApp;
  beforeAll(async () => {
    api = await TestApp.start(database);
  });
  afterAll(() => api.close());

  describe('the 6 × 5 matrix over HTTP', () => {
    const cases = (Object.keys(PATH_TO) as Status[]).flatMap((from) =>
      (Object.keys(ALLOWED) as Action[]).map((action) => [from, action] as const),
    );
    it.each(cases)('from %s, /%s', async (from, action) => {
      const ctas = new AdminClient(api, `matrix-${from}-${action}`);
      const startTime = api.clock.now() + HOUR;
      const id = await ctas.create({ startTime });
      for (const step of PATH_TO[from]) {
        expect((await ctas.status(id, step)).status).toBe(200);
      }
      expect((await ctas.get(id)).ctaStatus).toBe(from);
      if (from === 'paused' && action === 'schedule') {
        // Going live set startTime to then; an operator sets a future one before scheduling.
        expect((await ctas.update(id, { startTime: api.clock.now() + HOUR })).status).toBe(200);
      }
      const before = api.clock.now();
      const res = await ctas.status(id, action);
      const after = await ctas.get(id);
      if (ALLOWED[action].from.includes(from)) {
        expect(res.status).toBe(200);
        expect(res.body).toEqual({});
        expect(after.ctaStatus).toBe(ALLOWED[action].to);
        if (action === 'live') {
          expect(after.startTime).toBeGreaterThanOrEqual(before);
        }
        if (action === 'conclude' || action === 'terminate') {
          expect(after.endTime).toBeGreaterThanOrEqual(before);
          expect(after.rule.ctaValidTill).toBe(after.endTime);
        }
      } else {
        expect(res.status).toBe(400);
        const refusal =
          from === ALLOWED[action].to
            ? `CTA ${id} is already ${from}; nothing to change`
            : `cannot move CTA ${id} from ${from} to ${ALLOWED[action].to}`;
        expect(res.body).toEqual(errorBody('CTA_STATUS_UPDATE_INVALID', refusal));
        expect(after.ctaStatus).toBe(from);
      }
    });
  });

  it('schedule needs a startTime that is not in the past (no tolerance)', async () => {
    const ctas = new AdminClient(api, 'schedule-rules');
    const noStart = await ctas.create();
    expect((await ctas.status(noStart, 'schedule')).body).toEqual(
      errorBody('CTA_STATUS_UPDATE_INVALID', `cannot schedule CTA ${noStart}: it has no startTime`),
    );
    const soon = await ctas.create({ startTime: api.clock.now() + 1000 });
    api.clock.advance(2000);
    const res = await ctas.status(soon, 'schedule');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('CTA_STATUS_UPDATE_INVALID');
    expect(res.body.error.message).toContain('in the past');
    expect((await ctas.get(soon)).ctaStatus).toBe('draft');
  });

  it('ignores the body: none, {} or any JSON', async () => {
    const ctas = new AdminClient(api, 'bodies');
    const a = await ctas.create();
    expect((await api.put(`/engine/ctas/${a}/live`, undefined, ctas.headers())).status).toBe(200);
    expect((await api.put(`/engine/ctas/${a}/pause`, {}, ctas.headers())).status).toBe(200);
    expect((await api.put(`/engine/ctas/${a}/live`, { ctaStatus: 'concluded', anything: [1, 2] }, ctas.headers())).status).toBe(200);
    expect((await ctas.get(a)).ctaStatus).toBe('live');
  });

  it('needs no user header', async () => {
    const ctas = new AdminClient(api, 'no-user');
    const id = await ctas.create();
    const res = await api.put(`/engine/ctas/${id}/live`, undefined, { 'x-tenant-id': 'no-user' });
    expect(res.status).toBe(200);
  });

  it('answers CTA_STATUS_INVALID for an unknown action and CTA_ID_INVALID for unknown ids', async () => {
    const ctas = new AdminClient(api, 'errors');
    const id = await ctas.create();
    expect((await ctas.status(id, 'publish' as Action)).body).toEqual(errorBody('CTA_STATUS_INVALID'));
    expect((await ctas.status(id, 'LIVE' as Action)).body).toEqual(errorBody('CTA_STATUS_INVALID'));
    for (const bad of ['999999', 'abc', '-1', '0', '1.5', '12345678901234567890']) {
      const res = await api.put(`/engine/ctas/${bad}/live`, undefined, ctas.headers());
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errorBody('CTA_ID_INVALID'));
    }
    expect((await ctas.get(id)).ctaStatus).toBe('draft');
  });

  it('never touches another tenant’s CTA', async () => {
    const owner = new AdminClient(api, 'owner');
    const other = new AdminClient(api, 'intruder');
    const id = await owner.create();
    const res = await other.status(id, 'live');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBody('CTA_ID_INVALID'));
    expect((await owner.get(id)).ctaStatus).toBe('draft');
  });

  it('lets exactly one of 24 concurrent conflicting changes win', async () => {
    const ctas = new AdminClient(api, 'race');
    const id = await ctas.create();
    expect((await ctas.status(id, 'live')).status).toBe(200);
    const actions: Action[] = Array.from({ length: 24 }, (_, index) => (index % 2 === 0 ? 'conclude' : 'terminate'));
    const results = await Promise.all(actions.map((action) => ctas.status(id, action)));
    const winners = results.filter((res) => res.status === 200);
    expect(winners).toHaveLength(1);
    expect(results.filter((res) => res.status === 400 && res.body.error.code === 'CTA_STATUS_UPDATE_INVALID')).toHaveLength(23);
    const final = (await ctas.get(id)).ctaStatus;
    expect(['concluded', 'terminated']).toContain(final);
  });

  it('lets exactly one of 20 concurrent /live requests on a draft win', async () => {
    const ctas = new AdminClient(api, 'race-live');
    const id = await ctas.create();
    const results = await Promise.all(Array.from({ length: 20 }, () => ctas.status(id, 'live')));
    expect(results.filter((res) => res.status === 200)).toHaveLength(1);
    expect(results.filter((res) => res.status === 400)).toHaveLength(19);
  });

  describe('timed transitions', () => {
    const runJobs = () => api.service(PeriodicJobsService).runAll();

    it('moves scheduled → live at startTime and live → concluded at endTime, idempotently', async () => {
      const ctas = new AdminClient(api, 'timed');
      const now = api.clock.now();
      const id = await ctas.create({ startTime: now + HOUR, endTime: now + 3 * HOUR });
      expect((await ctas.status(id, 'schedule')).status).toBe(200);
      await runJobs();
      expect((await ctas.get(id)).ctaStatus).toBe('scheduled');
      api.clock.advance(HOUR);
      await runJobs();
      await runJobs();
      const live = await ctas.get(id);
      expect(live.ctaStatus).toBe('live');
      expect(live.startTime).toBe(now + HOUR);
      api.clock.advance(2 * HOUR);
      await Promise.all([runJobs(), ctas.status(id, 'pause')]);
      await runJobs();
      const concluded = await ctas.get(id);
      expect(concluded.ctaStatus).toBe('concluded');
      expect(concluded.endTime).toBe(now + 3 * HOUR);
    });

    it('concludes paused CTAs past their endTime and leaves others alone', async () => {
      const ctas = new AdminClient(api, 'timed-paused');
      const now = api.clock.now();
      const paused = await ctas.create({ endTime: now + HOUR });
      await ctas.status(paused, 'live');
      await ctas.status(paused, 'pause');
      const draft = await ctas.create({ startTime: now + 30 * 60 * 1000, endTime: now + HOUR });
      const openEnded = await ctas.create();
      await ctas.status(openEnded, 'live');
      api.clock.advance(2 * HOUR);
      await runJobs();
      expect((await ctas.get(paused)).ctaStatus).toBe('concluded');
      expect((await ctas.get(draft)).ctaStatus).toBe('draft');
      expect((await ctas.get(openEnded)).ctaStatus).toBe('live');
    });

    it('takes a scheduled CTA whose start and end both passed to concluded in one run', async () => {
      const ctas = new AdminClient(api, 'timed-both');
      const now = api.clock.now();
      const id = await ctas.create({ startTime: now + HOUR, endTime: now + 2 * HOUR });
      await ctas.status(id, 'schedule');
      api.clock.advance(3 * HOUR);
      await runJobs();
      expect((await ctas.get(id)).ctaStatus).toBe('concluded');
    });
  });
});
