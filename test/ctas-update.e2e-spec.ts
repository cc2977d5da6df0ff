import { AdminClient } from './admin-client';
import { DAY, MINUTE } from './test-clock';
import { ctaBody, examples } from './fixtures';
import { eachDatabase, errorBody, TestApp } from './harness';

/** `PUT /engine/ctas/{id}`: editing a draft or paused CTA. */

eachDatabase('CTAs', (database) => {
  let api: TestApp;
  beforeAll(async () => {
    api = await TestApp.start(database);
  });
  afterAll(() => api.close());

  describe('PUT /engine/ctas/{id}', () => {
    it('replaces tags, team and rule; omitted description and times keep their value, null clears them', async () => {
      const ctas = new AdminClient(api, 'update-happy');
      const now = api.clock.now();
      const id = await ctas.create({ description: 'first', startTime: now + DAY, endTime: now + 2 * DAY });
      const rule = { ...examples.rule(), priority: 9 };
      const res = await api.put(
        `/engine/ctas/${id}`,
        { tags: ['new'], team: 'retention', rule },
        { 'x-tenant-id': 'update-happy', user: 'editor@example.com' },
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      const updated = await ctas.get(id);
      expect(updated).toMatchObject({
        name: expect.stringMatching(/^cta-/),
        description: 'first',
        tags: ['new'],
        team: 'retention',
        startTime: now + DAY,
        endTime: now + 2 * DAY,
        rule: { ...rule, ctaValidTill: now + 2 * DAY },
        createdBy: 'ops@example.com',
        lastUpdatedBy: 'editor@example.com',
      });
      expect(updated.lastUpdatedAt).toBeGreaterThanOrEqual(now);
      expect(
        (
          await api.put(
            `/engine/ctas/${id}`,
            { tags: [], team: 't', rule, description: null, startTime: null, endTime: null },
            ctas.headers(),
          )
        ).status,
      ).toBe(200);
      expect(await ctas.get(id)).toMatchObject({
        description: null,
        startTime: null,
        endTime: null,
        tags: [],
        rule: { ctaValidTill: null },
      });
    });

    it('checks endTime against the kept startTime', async () => {
      const ctas = new AdminClient(api, 'update-times');
      const now = api.clock.now();
      const id = await ctas.create({ startTime: now + DAY });
      const { name: _name, startTime: _start, ...body } = ctaBody({ endTime: now + MINUTE });
      const res = await api.put(`/engine/ctas/${id}`, body, ctas.headers());
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errorBody('INVALID_REQUEST', expect.stringContaining('endTime')));
      expect((await ctas.get(id)).endTime).toBeNull();
    });

    it('rejects a name in the body with INVALID_REQUEST', async () => {
      const ctas = new AdminClient(api, 'update-name');
      const id = await ctas.create({ name: 'fixed' });
      for (const name of ['renamed', null, 'fixed']) {
        const res = await api.put(`/engine/ctas/${id}`, { ...ctaBody(), name }, ctas.headers());
        expect(res.status).toBe(400);
        expect(res.body).toEqual(errorBody('INVALID_REQUEST', 'name cannot be changed on update'));
      }
      expect((await ctas.get(id)).name).toBe('fixed');
    });

    it('is allowed in draft and paused, live and scheduled (a null startTime keeping the start: test/live-edits), not in final ones', async () => {
      const ctas = new AdminClient(api, 'update-status');
      const paused = await ctas.create();
      await ctas.status(paused, 'live');
      await ctas.status(paused, 'pause');
      expect((await ctas.update(paused, { team: 'edited' })).status).toBe(200);
      expect((await ctas.get(paused)).team).toBe('edited');
      const scheduled = await ctas.create({ startTime: api.clock.now() + DAY });
      await ctas.status(scheduled, 'schedule');
      const live = await ctas.create();
      await ctas.status(live, 'live');
      const concluded = await ctas.create();
      await ctas.status(concluded, 'live');
      await ctas.status(concluded, 'conclude');
      const terminated = await ctas.create();
      await ctas.status(terminated, 'terminate');
      for (const id of [scheduled, live]) {
        const { startTime } = await ctas.get(id);
        expect((await ctas.update(id, { team: 'edited' })).status).toBe(200);
        expect(await ctas.get(id)).toMatchObject({ team: 'edited', startTime });
      }
      for (const [id, status] of [
        [concluded, 'concluded'],
        [terminated, 'terminated'],
      ] as const) {
        const res = await ctas.update(id, { team: 'edited' });
        expect(res.status).toBe(400);
        expect(res.body).toEqual(errorBody('CTA_STATUS_UPDATE_INVALID', expect.stringContaining(`CTA ${id} is ${status}`)));
        expect((await ctas.get(id)).team).toBe('growth');
      }
    });

    it('answers CTA_ID_INVALID for unknown, malformed and other tenants’ ids', async () => {
      const owner = new AdminClient(api, 'update-owner');
      const id = await owner.create();
      const intruder = new AdminClient(api, 'update-intruder');
      expect((await intruder.update(id, { team: 'stolen' })).body).toEqual(errorBody('CTA_ID_INVALID'));
      expect((await owner.update(99999999)).body).toEqual(errorBody('CTA_ID_INVALID'));
      const { name: _name, ...body } = ctaBody();
      expect((await api.put('/engine/ctas/abc', body, owner.headers())).body).toEqual(errorBody('CTA_ID_INVALID'));
      expect((await owner.get(id)).team).toBe('growth');
    });

    it('validates the whole body first and writes nothing on a 400', async () => {
      const ctas = new AdminClient(api, 'update-invalid');
      const id = await ctas.create();
      const bad = await ctas.update(id, { team: 'changed', rule: { ...examples.rule(), priority: 'high' } });
      expect(bad.body).toEqual(errorBody('INVALID_REQUEST', 'rule.priority: must be an integer'));
      const noUser = await api.put(
        `/engine/ctas/${id}`,
        { tags: [], team: 'changed', rule: examples.rule() },
        { 'x-tenant-id': 'update-invalid' },
      );
      expect(noUser.body).toEqual(errorBody('INVALID_REQUEST', "header 'user' is required"));
      const pastStart = await ctas.update(id, { team: 'changed', startTime: api.clock.now() - 10 * MINUTE });
      expect(pastStart.body).toEqual(errorBody('INVALID_REQUEST', expect.stringContaining('startTime')));
      expect(await ctas.get(id)).toMatchObject({ team: 'growth', lastUpdatedAt: null });
    });
  });
});
