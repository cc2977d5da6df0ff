import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AdminClient } from './admin-client';
import { databaseContents } from './database-contents';
import { ctaBody, examples } from './fixtures';
import { eachDatabase, errorBody, TestApp } from './harness';

type Json = Record<string, any>;

/**
 * Journeys recorded by running the real mobile SDK's engine code (raven-client), one app session per
 * case, its clock set to each event's `at`: test/fixtures/simulate-cases.json. A machine of
 * a rule without groupByKeys is named by the CTA id, written `$ctaId` there: what the simulator names
 * it for a CTA body, which has no id yet.
 */
const RECORDED: { ctaIdPlaceholder: string; cases: Json[] } = JSON.parse(
  readFileSync(join(__dirname, 'fixtures', 'simulate-cases.json'), 'utf8'),
);

const SIMULATE = '/engine/ctas/simulate';

/** A step as the recordings write it: the device reports no condition path and no message. */
function asRecorded(step: Json): Json {
  const { condition: _path, skipped, ...rest } = step;
  if (skipped === null) return { ...rest, skipped };
  const { message: _message, ...code } = skipped;
  return { ...rest, skipped: code };
}

/** The final state as the recordings write it: machines' state and context, and the lists with their counts. */
function asRecordedFinal(state: Json): Json {
  const machines = Object.fromEntries(
    Object.entries(state.activeStateMachines as Json).map(([id, machine]) => [
      id,
      { currentState: machine.currentState, context: machine.context },
    ]),
  );
  return {
    activeStateMachines: machines,
    resetAt: state.resetAt.length,
    actionDoneAt: state.actionDoneAt.length,
    resetAtValues: state.resetAt,
    actionDoneAtValues: state.actionDoneAt,
  };
}

/** The case with `$ctaId` written as `id` (JSON text, so machine ids, keys and values alike). */
const withCtaId = (value: unknown, id: string): any =>
  JSON.parse(JSON.stringify(value).split(`"${RECORDED.ctaIdPlaceholder}"`).join(`"${id}"`));

eachDatabase('journey simulation', (database) => {
  let api: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    api = await TestApp.start(database);
    admin = new AdminClient(api, 'simulate');
  });
  afterAll(() => api.close());

  const simulate = (body: unknown, tenant = admin.tenantId) => api.post(SIMULATE, body, { 'x-tenant-id': tenant });

  // Recorded with the legacy engine; none of them carries actionDone, so the newest engine (the default) must agree too.
  const replays = RECORDED.cases.flatMap((recorded) => [
    [recorded.name, 'default', recorded] as const,
    [recorded.name, 'legacy', recorded] as const,
  ]);
  it.each(replays)('agrees with the real SDK: %s (%s engine)', async (_name, engine, recorded) => {
    const res = await simulate({
      cta: recorded.cta,
      state: recorded.state,
      events: recorded.events,
      ...(engine === 'legacy' ? { engine } : {}),
    });
    expect(res.status).toBe(200);
    expect(res.body.data.steps.map(asRecorded)).toEqual(recorded.device.steps);
    expect(asRecordedFinal(res.body.data.state)).toEqual(recorded.device.final);
  });

  it('runs a stored CTA by id the same way, its machine named by its id, and names the condition each step took', async () => {
    const recorded = RECORDED.cases.find((candidate) => candidate.name === 'multi_step_journey_with_nudge') as Json;
    const id = String(await admin.create(recorded.cta));
    const res = await simulate({ cta: { id: Number(id) }, events: recorded.events });
    expect(res.status).toBe(200);
    const expected = withCtaId(recorded.device, id);
    expect(res.body.data.steps.map(asRecorded)).toEqual(expected.steps);
    expect(asRecordedFinal(res.body.data.state)).toEqual(expected.final);
    expect(res.body.data.steps.map((step: Json) => step.condition)).toEqual([
      null,
      'rule.stateTransition.app_open.0[0]',
      'rule.stateTransition.product_view.1[0]',
      'rule.stateTransition.purchase.2[0]',
      'rule.stateTransition.app_open.0[0]',
    ]);
    // The device never advances lastTransitionAt: a machine keeps the time it was created at.
    const at = recorded.events[4].at;
    expect(res.body.data.state.activeStateMachines).toEqual({
      [id]: { currentState: '1', lastTransitionAt: at, createdAt: at, context: {} },
    });
  });

  describe('the engine', () => {
    // The example rule: store_opened from home with 500 or more in the cart moves "0" → "1", whose action is the store banner.
    const opened = { source: 'home', cartValue: 650, storeId: 'store-77', actionDone: true };
    const body = (engine?: string) => ({
      cta: ctaBody(),
      events: [{ eventName: 'store_opened', properties: opened, at: 1_000 }],
      ...(engine ? { engine } : {}),
    });

    it("follows the newest engine unless asked: an event's own actionDone no longer keeps it from acting", async () => {
      for (const engine of [undefined, 'newest']) {
        const res = await simulate(body(engine));
        expect(res.status).toBe(200);
        expect(res.body.data.steps[0]).toMatchObject({
          machineId: 'store-77',
          from: null,
          to: '1',
          action: { actionId: 'store_banner', type: 'NUDGE_UI', shown: true },
          skipped: null,
        });
        expect(res.body.data.state.actionDoneAt).toEqual([1_000]);
      }
    });

    it('runs the older gate with engine "legacy": an event carrying actionDone passes over conditions leading to an action', async () => {
      const res = await simulate(body('legacy'));
      expect(res.status).toBe(200);
      expect(res.body.data.steps[0]).toMatchObject({ machineId: 'store-77', from: null, to: '0', action: null, created: true });
      expect(res.body.data.steps[0].skipped).toEqual({ code: 'FILTERS_FAILED', message: expect.stringContaining('the legacy engine') });
      expect(res.body.data.state.actionDoneAt).toEqual([]);
    });

    it.each<[string, unknown]>([
      ['an unknown name', 'v2'],
      ['another case', 'Legacy'],
      ['a number', 2],
    ])('answers 400 INVALID_REQUEST naming engine for %s', async (_case, engine) => {
      const res = await simulate({ ...body(), engine });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        errorBody('INVALID_REQUEST', `engine: must be "newest" or "legacy" (default "newest"), not ${JSON.stringify(engine)}`),
      );
    });
  });

  it('coerces event values as devices do, and reads a null group-by value as present, joined as ""', async () => {
    const rule = examples.rule();
    rule.groupByConfig = { maxActiveStateMachineCount: 5, groupByKeys: ['n', 'b'] };
    rule.contextParams = [];
    const leaf = (propertyName: string, propertyType: string, comparisonType: string, comparisonValue: unknown) => ({
      propertyName,
      propertyType,
      comparisonType,
      comparisonValue,
    });
    rule.stateTransition.store_opened['0'][0].filters = {
      operator: 'AND',
      filter: [leaf('code', 'string', '=', '5'), leaf('flag', 'string', '=', 'true'), leaf('count', 'number', '>=', 1)],
    };
    const events = [
      // 5 reads as "5", true as "true", true as 1: the machine of n null and b false is "-false".
      { eventName: 'store_opened', properties: { code: 5, flag: true, count: true, n: null, b: false } },
      // null reads as 0 for a number, so it fails >= 1; the machine "0-x" stays in "0".
      { eventName: 'store_opened', properties: { code: '5', flag: 'true', count: null, n: 0, b: 'x' } },
      // No n at all: the only group-by miss.
      { eventName: 'store_opened', properties: { code: 5, flag: true, count: 2, b: false } },
      // A property the event does not carry fails its comparison.
      { eventName: 'store_opened', properties: { code: 5, count: 2, n: 'a', b: 'b' } },
    ];
    const res = await simulate({ cta: ctaBody({ rule }), events });
    expect(res.status).toBe(200);
    expect(res.body.data.steps.map((step: Json) => [step.machineId, step.to, step.skipped?.code ?? null])).toEqual([
      ['-false', '1', null],
      ['0-x', '0', 'FILTERS_FAILED'],
      [null, null, 'GROUP_KEY_MISSING'],
      ['a-b', '0', 'FILTERS_FAILED'],
    ]);
    expect(Object.keys(res.body.data.state.activeStateMachines)).toEqual(['-false', '0-x', 'a-b']);
  });

  it('writes nothing', async () => {
    const recorded = RECORDED.cases.find((candidate) => candidate.name === 'group_by_machines_and_missing_key') as Json;
    const id = await admin.cta({ rule: recorded.cta.rule });
    const before = await databaseContents(api);
    expect((await simulate({ cta: recorded.cta, events: recorded.events })).status).toBe(200);
    expect((await simulate({ cta: { id }, state: recorded.state, events: recorded.events })).status).toBe(200);
    expect(await databaseContents(api)).toEqual(before);
  });

  it('refuses a rule devices cannot run, naming every problem as create does', async () => {
    const rule = examples.rule();
    rule.stateToAction['2'] = 'popup';
    rule.stateTransition.store_opened['0'][0].filters.filter[0].comparisonType = 'EQUALS';
    const body = ctaBody({ rule });
    const created = await api.post('/engine/ctas', body, admin.headers());
    const res = await simulate({ cta: body, events: [{ eventName: 'store_opened' }] });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_REQUEST');
    const problems = (created.body.error.message as string).split('; ');
    expect(problems).toHaveLength(2);
    expect(res.body.error.message).toBe(problems.map((problem) => `cta.${problem}`).join('; '));
  });

  it('answers CTA_ID_INVALID for an id the tenant does not have', async () => {
    const id = await admin.cta();
    const testCta = await admin.testCta([42], 60);
    for (const [cta, tenant] of [
      [{ id: 999_999 }, admin.tenantId],
      [{ id }, 'simulate-other'],
      [{ id: testCta }, admin.tenantId],
    ] as const) {
      expect(await simulate({ cta, events: [{ eventName: 'store_opened' }] }, tenant)).toMatchObject({
        status: 400,
        body: errorBody('CTA_ID_INVALID', `CTA ${cta.id} does not exist`),
      });
    }
  });

  it.each<[string, unknown, string]>([
    ['a body that is no object', [], 'the body must be a JSON object'],
    ['no cta', { events: [{ eventName: 'e' }] }, 'cta: is required'],
    ['a malformed CTA id', { cta: { id: 'twelve' }, events: [{ eventName: 'e' }] }, 'cta.id: must be a CTA id'],
    ['no events', { cta: { id: 1 }, events: [] }, 'events: must be an array of 1 to 1000 events, not 0 events'],
    ['1,001 events', { cta: { id: 1 }, events: Array.from({ length: 1001 }, () => ({ eventName: 'e' })) }, 'not 1001 events'],
    ['an event without a name', { cta: { id: 1 }, events: [{ eventName: 'e' }, { at: 5 }] }, 'events[1].eventName: must be a string'],
    ['a malformed time', { cta: { id: 1 }, events: [{ eventName: 'e', at: '5' }] }, 'events[0].at: must be epoch milliseconds'],
    [
      'events out of order',
      {
        cta: { id: 1 },
        events: [
          { eventName: 'e', at: 9 },
          { eventName: 'e', at: 5 },
        ],
      },
      'events[1].at: 5 is before',
    ],
    ['an unknown event field', { cta: { id: 1 }, events: [{ eventName: 'e', propeties: {} }] }, 'events[0].propeties: is not a field'],
    ['properties that are no object', { cta: { id: 1 }, events: [{ eventName: 'e', properties: [1] }] }, 'events[0].properties: must be'],
    [
      'a machine without createdAt',
      { cta: { id: 1 }, state: { activeStateMachines: { m: { currentState: '1' } } }, events: [{ eventName: 'e' }] },
      'state.activeStateMachines.m.createdAt: must be epoch milliseconds',
    ],
    ['a malformed resetAt', { cta: { id: 1 }, state: { resetAt: [1, 'x'] }, events: [{ eventName: 'e' }] }, 'state.resetAt[1]: must be'],
  ])('answers 400 INVALID_REQUEST naming the field for %s', async (_case, body, message) => {
    const res = await simulate(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBody('INVALID_REQUEST', expect.stringContaining(message)));
  });

  it('names every problem of the request at once', async () => {
    const res = await simulate({ cta: { id: 'x' }, state: { resetAt: 'soon' }, events: [{ eventName: '' }, 7] });
    expect(res.body.error.message).toBe(
      'cta.id: must be a CTA id (a positive integer), not "x"; state.resetAt: must be an array of epoch milliseconds; ' +
        'events[0].eventName: must be a string of 1-255 characters, not ""; ' +
        'events[1]: must be an object: {eventName, properties?, at?, appVersion?, packageName?, platform?}',
    );
  });
});
