import { eachDatabase, errorBody, TestApp } from './harness';

const OPERATOR = { user: 'ops@example.com' };
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** "2026-11-25T11:43:34.000Z (1795693414000)" */
const instant = (epochMs: number): string => `${new Date(epochMs).toISOString()} (${epochMs})`;

/**
 * Every admin body names every problem in one message (docs/decisions/0014-admin-console.md), with the
 * endpoint's code (docs/decisions/0001-wire-rules-and-errors.md).
 */
eachDatabase('Validation messages', (database) => {
  let api: TestApp;
  let rule: Record<string, unknown>;

  beforeAll(async () => {
    api = await TestApp.start(database);
    const document = (await api.get('/docs-json')).body;
    rule = document.paths['/engine/ctas'].post.requestBody.content['application/json'].examples['first-purchase-reminder'].value.rule;
  });
  afterAll(() => api.close());

  const refusal = async (path: string, body: unknown, method: 'POST' | 'PUT' = 'POST') => {
    const response = await api.request(method, path, { body, headers: OPERATOR });
    expect(response.status).toBe(400);
    return response.body;
  };

  it.each<[string, string, unknown, string, string]>([
    ['a CTA', '/engine/ctas', {}, 'INVALID_REQUEST', 'name is required; tags is required; team is required; rule is required'],
    [
      'a test CTA',
      '/engine/ctas/test/create',
      {},
      'CTA_CREATION_ERROR',
      'userIds is required; expiresInMinutes is required; rule is required',
    ],
    [
      'a behaviour tag',
      '/engine/behaviour-tags',
      {},
      'CAMPAIGN_INVALID',
      'behaviourTagName is required; exposureRule is required; ctaRelation is required; linkedCtas is required',
    ],
    ['events', '/engine/events', {}, 'INVALID_REQUEST', 'events is required'],
    ['event properties', '/engine/events/store_opened', {}, 'INVALID_REQUEST', 'properties is required'],
  ])('lists every missing field of %s, with its code', async (_body, path, body, code, message) => {
    expect(await refusal(path, body, path.endsWith('store_opened') ? 'PUT' : 'POST')).toEqual(errorBody(code, message));
  });

  it('names a type error as one ("must be a string"), not a length or size rule, beside every other problem', async () => {
    const body = { name: 123, tags: 'onboarding', team: '', description: 5, startTime: '1795693414000', rule: [] };
    expect(await refusal('/engine/ctas', body)).toEqual(
      errorBody(
        'INVALID_REQUEST',
        'name must be a string; tags must be an array; team must be longer than or equal to 1 characters; ' +
          'description must be a string; startTime must be an integer number; rule must be an object',
      ),
    );
    expect(await refusal('/engine/ctas', { name: 'n', tags: ['ok', 7], team: 't', rule })).toEqual(
      errorBody('INVALID_REQUEST', 'each value in tags must be a string'),
    );
  });

  it('paths nested fields with dots and list elements with [i]', async () => {
    const events = { events: [5, { properties: [{ propertyName: 'p', type: 'String' }] }, { eventName: 1, properties: 'x' }] };
    expect(await refusal('/engine/events', events)).toEqual(
      errorBody(
        'INVALID_REQUEST',
        'events[0] must be an object; events[1].eventName is required; events[1].properties[0].isMandatory is required; ' +
          'events[2].eventName must be a string; events[2].properties must be an array',
      ),
    );
    const tag = {
      behaviourTagName: 7,
      exposureRule: { session: 5, window: { limit: 'x', unit: 'months', value: 1 }, lifespan: { limit: -1 } },
      ctaRelation: { shownCta: { rule: 'ANY', ctaList: [] }, hideCta: { rule: 'REST', ctaList: [] } },
      linkedCtas: [],
    };
    expect(await refusal('/engine/behaviour-tags', tag)).toEqual(
      errorBody(
        'CAMPAIGN_INVALID',
        'behaviourTagName must be a string; exposureRule.session must be an object; exposureRule.window.limit must be an integer number; ' +
          'exposureRule.window.unit "months" cannot be stored: a month has no fixed length (28 to 31 days), so devices cannot count one; use days (e.g. 30); ' +
          'exposureRule.lifespan.limit must not be less than 0',
      ),
    );
  });

  it('keeps each endpoint its code for the other bodies: test CTAs, previews', async () => {
    expect(await refusal('/engine/ctas/test/create', { userIds: 5, expiresInMinutes: '60', rule })).toEqual(
      errorBody('CTA_CREATION_ERROR', 'userIds must be an array; expiresInMinutes must be an integer number'),
    );
    expect(await refusal('/engine/nudge/preview', { id: 5, template: 6, ttl: 0 })).toEqual(
      errorBody('INVALID_REQUEST', 'id must be a string; template must be a string; ttl must not be less than 1'),
    );
  });

  it('refuses a body that is no JSON object in one problem', async () => {
    for (const body of [[], 'cta', 5, null]) {
      expect(await refusal('/engine/ctas', JSON.stringify(body))).toEqual(errorBody('INVALID_REQUEST', 'the body must be a JSON object'));
    }
  });

  it('lists at most 20 problems and counts the rest', async () => {
    const events = { events: Array.from({ length: 25 }, () => ({ eventName: 1 })) };
    const { message } = (await refusal('/engine/events', events)).error;
    expect(message.split('; ')).toHaveLength(21);
    expect(message).toMatch(/^events\[0\]\.eventName must be a string; .*; events\[19\]\.eventName must be a string; and 5 more$/);
  });

  it('shows times as ISO 8601 beside the epoch milliseconds, every time problem at once', async () => {
    const now = api.clock.now();
    const past = now - 3 * MINUTE;
    const ahead = now + 6 * 365 * DAY;
    const { message } = (await refusal('/engine/ctas', { name: 'timed', tags: [], team: 'growth', rule, startTime: past, endTime: ahead }))
      .error;
    const time = '(\\S+) \\((\\d+)\\)';
    const window = `must lie between ${time} \\(now - 120000 ms\\) and ${time} \\(now \\+ 1825 days\\)`;
    const parts = new RegExp(`^startTime ${window}, not ${time}, in the past; endTime ${window}, not ${time}, too far ahead$`).exec(
      message,
    );
    expect(parts).not.toBeNull();
    const [, earliestIso, earliest, latestIso, latest, startIso, start, , , , , endIso, end] = parts as RegExpExecArray;
    // Each time is shown as its ISO 8601 text beside the epoch value, and the window is the one around now.
    for (const [iso, epoch] of [
      [startIso, start],
      [earliestIso, earliest],
      [latestIso, latest],
      [endIso, end],
    ]) {
      expect(new Date(iso).getTime()).toBe(Number(epoch));
    }
    expect([Number(start), Number(end)]).toEqual([past, ahead]);
    expect(Number(earliest) - (now - 2 * MINUTE)).toBeGreaterThanOrEqual(0);
    expect(Number(latest) - Number(earliest)).toBe(1825 * DAY + 2 * MINUTE);

    const begin = now + DAY;
    expect(
      await refusal('/engine/ctas', { name: 'timed', tags: [], team: 'growth', rule, startTime: begin, endTime: begin - MINUTE }),
    ).toEqual(errorBody('INVALID_REQUEST', `endTime must be after startTime ${instant(begin)}, not ${instant(begin - MINUTE)}`));
  });

  it('names wrong fields, rule problems and time problems of one body together', async () => {
    const past = api.clock.now() - 3 * MINUTE;
    const body = { name: 123, tags: 'onboarding', team: 'growth', rule: { ...rule, priority: 'high' }, startTime: past };
    const { message } = (await refusal('/engine/ctas', body)).error;
    expect(message).toMatch(
      /^name must be a string; tags must be an array; rule\.priority: [^;]+; startTime must lie between .*, not \S+Z \(\d+\), in the past$/,
    );
    const test = { userIds: 5, expiresInMinutes: 60, rule: { ...rule, priority: 'high' } };
    expect(await refusal('/engine/ctas/test/create', test)).toEqual(
      errorBody('CTA_CREATION_ERROR', expect.stringMatching(/^userIds must be an array; rule\.priority: [^;]+$/)),
    );
  });

  it('answers a time beyond any date with a 400 naming it, not a 500', async () => {
    const { message } = (await refusal('/engine/ctas', { name: 'far', tags: [], team: 'growth', rule, endTime: 1e17 })).error;
    expect(message).toMatch(/^endTime must lie between .*, not 100000000000000000 \(beyond any date\), too far ahead$/);
  });

  it('names a rule problem and a time problem of one body together', async () => {
    const past = api.clock.now() - 3 * MINUTE;
    const { message } = (
      await refusal('/engine/ctas', { name: 'both', tags: [], team: 'growth', rule: { ...rule, priority: 'high' }, startTime: past })
    ).error;
    expect(message).toMatch(/^rule\.priority: .*; startTime must lie between .*, not \S+Z \(\d+\), in the past$/);
  });

  it('shows a past startTime refused by schedule as ISO 8601 beside the epoch milliseconds', async () => {
    const start = api.clock.now() + MINUTE;
    const created = await api.post('/engine/ctas', { name: 'to-schedule', tags: [], team: 'growth', rule, startTime: start }, OPERATOR);
    api.clock.advance(2 * MINUTE);
    const { message } = (await refusal(`/engine/ctas/${created.body.data}/schedule`, undefined, 'PUT')).error;
    expect(message).toMatch(
      new RegExp(
        `^cannot schedule CTA ${created.body.data}: its startTime ${instant(start).replace(/[.()]/g, '\\$&')} is in the past \\(now \\S+Z \\(\\d+\\)\\)$`,
      ),
    );
  });
});
