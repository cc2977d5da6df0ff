import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { eachDatabase, TestApp, TestResponse } from './harness';

/**
 * The real admin panel (raven-panel), replayed: `fixtures/panel-requests.json` holds the requests its
 * own request-building code sent to this service under the `thunder` alias, recorded on the wire
 * from the real admin panel, with what the panel reads from each answer (`about` at its top explains
 * every key). Every step is sent as recorded and every expectation checked.
 *
 * The recording is two runs of the panel, each in a tenant of its own: one with the `user` header,
 * one without (newer panel builds send none; the service falls back to ADMIN_DEFAULT_USER). The
 * second run sends the steps its `noUser` steps need first, as the first run sends them.
 *
 * A third run is the newest panel builds' journeys (`NEWEST_BUILDS`, docs/admin-panel.md): the same
 * bodies, sent as those builds send them — create and update at the root, `startTime: null` when the
 * schedule is untouched, a cohort picked from `/cohort-names`, a window in weeks — and checked, after
 * each save, to read back what was entered.
 */

type Json = Record<string, any>;

interface Expectations {
  status: number;
  read?: Record<string, string>;
  equals?: Record<string, unknown>;
  some?: Record<string, unknown>;
  countOf?: Record<string, string>;
  matches?: Record<string, string>;
  atLeast?: Record<string, number>;
}

interface Step {
  name: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  expect: Expectations;
  needs?: string[];
  noUser?: boolean;
  /** Not a panel call: sets up what the panel then reads. */
  setup?: boolean;
  onErrorPanelReads?: string[];
}

const recording: { about: string; steps: Step[] } = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'panel-requests.json'), 'utf8'));
const DEFAULT_USER = 'panel-default@example.com';

const stepNamed = new Map(recording.steps.map((step) => [step.name, step]));
/** The panel's own run with the user header, in the recorded order. */
const RUN_WITH_USER = recording.steps.filter((step) => !step.noUser);
/** The run without it: each noUser step after the steps it needs (and theirs), in the recorded order. */
const RUN_WITHOUT_USER = (() => {
  const wanted = new Set<string>();
  const want = (name: string): void => {
    if (wanted.has(name)) return;
    wanted.add(name);
    (stepNamed.get(name)?.needs ?? []).forEach(want);
  };
  recording.steps.filter((step) => step.noUser).forEach((step) => want(step.name));
  return recording.steps.filter((step) => wanted.has(step.name));
})();

const MISSING = Symbol('missing');

/** The values at a path of the `about` notation: `a.b` a key, `a[]` every element of the array at `a`. */
function valuesAt(root: unknown, path: string): unknown[] {
  let values: unknown[] = [root];
  for (const segment of path.split('.')) {
    const expand = segment.endsWith('[]');
    const key = expand ? segment.slice(0, -2) : segment;
    values = values.flatMap((value) => {
      const child = key === '' ? value : typeof value === 'object' && value !== null && key in value ? (value as Json)[key] : MISSING;
      if (!expand) return [child];
      return Array.isArray(child) ? child : [MISSING];
    });
  }
  return values;
}

const typeOf = (value: unknown): string =>
  value === MISSING ? 'missing' : value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
const shown = (values: unknown[]): string => JSON.stringify(values.map((value) => (value === MISSING ? '<missing>' : value)));

/**
 * What is wrong with an answer by the step's expectations, as sentences; none when it is what the panel needs.
 * `read`: the panel reads the field, so it is there (in at least one element under `[]`) and each value present has the type.
 */
function problemsOf(step: Step, response: TestResponse): string[] {
  const { status, read = {}, equals = {}, some = {}, countOf = {}, matches = {}, atLeast = {} } = step.expect;
  const body = response.body;
  const problems: string[] = [];
  if (response.status !== status) {
    problems.push(`status ${response.status}, expected ${status}: ${JSON.stringify(body)}`);
  }
  if (response.status !== 200) {
    for (const path of step.onErrorPanelReads ?? []) {
      if (valuesAt(body, path).some((value) => value === MISSING)) problems.push(`the panel reads ${path} of the error, which is missing`);
    }
  }
  for (const [path, type] of Object.entries(read)) {
    const values = valuesAt(body, path);
    const present = values.filter((value) => value !== MISSING);
    if (values.length > 0 && present.length === 0) problems.push(`read ${path}: missing`);
    const wrong = present.filter((value) => !type.split('|').includes(typeOf(value)));
    if (wrong.length > 0) problems.push(`read ${path}: ${shown(wrong)} is not ${type}`);
  }
  for (const [path, expected] of Object.entries(equals)) {
    const values = valuesAt(body, path);
    if (!values.every((value) => isDeepStrictEqual(value, expected)))
      problems.push(`equals ${path}: ${shown(values)}, not all ${JSON.stringify(expected)}`);
  }
  for (const [path, expected] of Object.entries(some)) {
    const values = valuesAt(body, path);
    if (!values.some((value) => isDeepStrictEqual(value, expected)))
      problems.push(`some ${path}: ${shown(values)} holds no ${JSON.stringify(expected)}`);
  }
  for (const [arrayPath, countPath] of Object.entries(countOf)) {
    const [array] = valuesAt(body, arrayPath);
    const [count] = valuesAt(body, countPath);
    if (!Array.isArray(array) || array.length !== count) {
      problems.push(
        `countOf ${arrayPath}: ${Array.isArray(array) ? array.length : typeOf(array)} elements, ${countPath} is ${shown([count])}`,
      );
    }
  }
  for (const [path, pattern] of Object.entries(matches)) {
    const values = valuesAt(body, path);
    if (values.length === 0 || !values.every((value) => typeof value === 'string' && new RegExp(pattern, 'i').test(value))) {
      problems.push(`matches ${path}: ${shown(values)} does not match /${pattern}/i`);
    }
  }
  for (const [path, least] of Object.entries(atLeast)) {
    const values = valuesAt(body, path);
    const sizes = values.map((value) => (Array.isArray(value) ? value.length : value));
    if (values.length === 0 || !sizes.every((size) => typeof size === 'number' && size >= least)) {
      problems.push(`atLeast ${path}: ${shown(sizes)} is not ≥ ${least}`);
    }
  }
  return problems;
}

/** `{{answer:STEP@PATH}}`: the value at PATH (the `about` notation, one value) of the answer to STEP, e.g. a start read before a save. */
const PLACEHOLDER = /\{\{(tenant|id:([^}|]+)(\|string)?|time:\+(\d+)|answer:([^}@]+)@([^}]+))\}\}/g;

/** One run of the panel: a fresh tenant, the ids its steps created, the steps that passed. */
class PanelRun {
  private readonly ids = new Map<string, number>();
  private readonly answers = new Map<string, unknown>();
  private readonly passed = new Set<string>();

  constructor(
    private readonly api: TestApp,
    private readonly tenant: string,
  ) {}

  /**
   * A placeholder's value: `{{tenant}}`, `{{id:STEP}}` (a number, or a string with `|string`), `{{time:+MS}}` (now + MS),
   * `{{answer:STEP@PATH}}` (from STEP's answer).
   */
  private value(placeholder: string): unknown {
    const [, what, step, asString, offset, answered, path] = new RegExp(PLACEHOLDER.source).exec(placeholder) as RegExpExecArray;
    if (what === 'tenant') return this.tenant;
    if (offset !== undefined) return this.api.clock.now() + Number(offset);
    if (answered !== undefined) {
      const [value] = valuesAt(this.answers.get(answered), path);
      if (value === MISSING) throw new Error(`no ${path} in the answer to step ${answered}`);
      return value;
    }
    const id = this.ids.get(step);
    if (id === undefined) throw new Error(`no id of step ${step}`);
    return asString ? String(id) : id;
  }

  /** Placeholders filled in: a string that is one placeholder takes its value's JSON type; inside longer text, its text. */
  private fill(value: unknown): unknown {
    if (typeof value === 'string') {
      const whole = value.match(PLACEHOLDER);
      if (whole?.length === 1 && whole[0] === value) return this.value(value);
      return value.replace(PLACEHOLDER, (placeholder) => String(this.value(placeholder)));
    }
    if (Array.isArray(value)) return value.map((item) => this.fill(item));
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.fill(item)]));
    }
    return value;
  }

  /** Sends the step as the panel did and answers what is wrong with the answer (or with what it needs). */
  async send(step: Step): Promise<string[]> {
    const unmet = (step.needs ?? []).filter((name) => !this.passed.has(name));
    if (unmet.length > 0) return [`cannot be sent: ${unmet.join(', ')} did not pass`];
    const response = await this.api.request(step.method, this.fill(step.path) as string, {
      headers: this.fill(step.headers) as Record<string, string>,
      body: step.body === null ? undefined : this.fill(step.body),
    });
    const { equals, some } = step.expect;
    const expected = { ...step.expect, equals: this.fill(equals) as Expectations['equals'], some: this.fill(some) as Expectations['some'] };
    const problems = problemsOf({ ...step, expect: expected }, response);
    if (problems.length === 0) {
      this.passed.add(step.name);
      this.answers.set(step.name, response.body);
      if (typeof response.body?.data === 'number') this.ids.set(step.name, response.body.data);
    }
    return problems;
  }
}

/**
 * The newest panel builds (measured 2026-11-28 with their own code): the recorded bodies, sent as they send them.
 * Create and update go to the root (`${BASE}/ctas/`), everything else stays under `thunder`; a re-save sends
 * `startTime: null` when the operator did not touch the schedule, and is followed by `/live` or `/schedule` again;
 * the cohort picker reads `${BASE}${NEXT_PUBLIC_COHORT_URL}?userId=…` (here `/thunder/cohort-names`); the frequency
 * window offers weeks. They send no `user` header. Each journey creates, reads, re-saves untouched and reads again:
 * the panel shows what was entered.
 */
const NEWEST_BUILDS: Step[] = (() => {
  const headers = { 'content-type': 'application/json', 'x-tenant-id': '{{tenant}}' };
  const recordedBody = (name: string): Json => structuredClone(stepNamed.get(name)?.body) as Json;
  const step = (name: string, method: string, path: string, expect: Expectations, fields: Partial<Step> = {}): Step => ({
    name: `newest:${name}`,
    method,
    path,
    headers,
    body: null,
    expect,
    ...fields,
    needs: fields.needs?.map((need) => `newest:${need}`),
  });
  /** A journey created at the root from a recorded create body, named anew and changed by `change`. */
  const create = (name: string, from: string, change: (body: Json) => void = () => undefined): Step => {
    const body = { ...recordedBody(from), name: `pn-${name}` };
    change(body);
    return step(`create-${name}`, 'POST', '/ctas/', { status: 200, read: { data: 'number' } }, { body });
  };
  /** The journey reopened and saved at the root without touching its schedule: `startTime: null`, the description edited. */
  const resave = (name: string, from: string, needs: string[], as = name): Step => {
    const { name: _name, ...body } = recordedBody(from);
    const resaved = { id: `{{id:newest:create-${name}|string}}`, ...body, description: `${as} re-saved`, startTime: null };
    return step(`resave-${as}`, 'PUT', `/ctas/{{id:newest:create-${name}}}`, { status: 200 }, { body: resaved, needs });
  };
  const read = (name: string, as: string, equals: Record<string, unknown>, needs: string[]): Step =>
    step(
      as,
      'GET',
      `/thunder/ctas/{{id:newest:create-${name}}}`,
      { status: 200, read: { 'data.startTime': 'number|null' }, equals },
      { needs },
    );
  const status = (name: string, action: string, needs: string[], as = `${action}-${name}`, expect: Expectations = { status: 200 }): Step =>
    step(as, 'PUT', `/thunder/ctas/{{id:newest:create-${name}}}/${action}`, expect, { needs });
  const alreadyThere = (status: string): Expectations => ({
    status: 400,
    equals: { 'error.code': 'CTA_STATUS_UPDATE_INVALID' },
    matches: { 'error.message': `^CTA \\d+ is already ${status}; nothing to change$` },
  });
  const pickedCohort = 'vip-buyers';
  return [
    step('seed-cohort', 'POST', '/thunder/cohorts', { status: 200 }, { body: { name: pickedCohort, kind: 'static' }, setup: true }),
    step(
      'cohort-picker',
      'GET',
      '/thunder/cohort-names?userId=admin%40example.com',
      { status: 200, read: { data: 'array', 'data[]': 'string' }, some: { 'data[]': 'all' } },
      { needs: ['seed-cohort'] },
    ),
    step(
      'cohort-picker-picks',
      'GET',
      '/thunder/cohort-names?userId=admin%40example.com',
      {
        status: 200,
        some: { 'data[]': pickedCohort },
      },
      { needs: ['seed-cohort'] },
    ),
    // A draft targeting the picked cohort, its window in weeks: stored as days.
    create('draft', 'create-string', (body) => {
      body.rule.cohortEligibility.includes = [pickedCohort];
      body.rule.frequency.window = { limit: 2, unit: 'weeks', value: 2 };
    }),
    read(
      'draft',
      'read-draft',
      {
        'data.ctaStatus': 'draft',
        'data.startTime': null,
        'data.rule.cohortEligibility.includes': [pickedCohort],
        'data.rule.frequency.window': { limit: 2, unit: 'days', value: 14 },
      },
      ['create-draft'],
    ),
    resave('draft', 'create-string', ['read-draft']),
    read('draft', 'read-draft-resaved', { 'data.ctaStatus': 'draft', 'data.startTime': null, 'data.description': 'draft re-saved' }, [
      'resave-draft',
    ]),
    // A scheduled journey re-saved untouched keeps its start; /schedule again changes nothing.
    create('scheduled', 'create-scheduled'),
    status('scheduled', 'schedule', ['create-scheduled']),
    read('scheduled', 'read-scheduled', { 'data.ctaStatus': 'scheduled' }, ['schedule-scheduled']),
    resave('scheduled', 'create-scheduled', ['read-scheduled']),
    status('scheduled', 'schedule', ['resave-scheduled'], 'schedule-again-scheduled', alreadyThere('scheduled')),
    read(
      'scheduled',
      'read-scheduled-resaved',
      {
        'data.ctaStatus': 'scheduled',
        'data.startTime': '{{answer:newest:read-scheduled@data.startTime}}',
        'data.description': 'scheduled re-saved',
      },
      ['resave-scheduled'],
    ),
    // A live journey targeting everyone ("all", as recorded): re-saved untouched, then paused and re-saved again.
    create('live', 'create-immediate'),
    status('live', 'live', ['create-live']),
    read('live', 'read-live', { 'data.ctaStatus': 'live', 'data.rule.cohortEligibility.includes': ['all'] }, ['live-live']),
    resave('live', 'create-immediate', ['read-live']),
    status('live', 'live', ['resave-live'], 'live-again-live', alreadyThere('live')),
    read(
      'live',
      'read-live-resaved',
      { 'data.ctaStatus': 'live', 'data.startTime': '{{answer:newest:read-live@data.startTime}}', 'data.description': 'live re-saved' },
      ['resave-live'],
    ),
    status('live', 'pause', ['read-live-resaved']),
    resave('live', 'create-immediate', ['pause-live'], 'paused'),
    read(
      'live',
      'read-paused-resaved',
      { 'data.ctaStatus': 'paused', 'data.startTime': '{{answer:newest:read-live@data.startTime}}', 'data.description': 'paused re-saved' },
      ['resave-paused'],
    ),
    status('live', 'live', ['read-paused-resaved'], 'live-after-pause'),
  ];
})();

describe('the panel recording', () => {
  it('is the one the expectations describe: every step known, every kind of expectation the test checks', () => {
    expect(recording.steps).toHaveLength(39);
    const kinds = new Set(recording.steps.flatMap((step) => Object.keys(step.expect)));
    expect([...kinds].sort()).toEqual(['atLeast', 'countOf', 'equals', 'matches', 'read', 'some', 'status']);
    for (const step of recording.steps) {
      expect({ step: step.name, unknownNeeds: (step.needs ?? []).filter((name) => !stepNamed.has(name)) }).toEqual({
        step: step.name,
        unknownNeeds: [],
      });
    }
    expect(RUN_WITHOUT_USER.map((step) => step.name)).toEqual([
      'create-number',
      'nouser:create',
      'nouser:update-draft',
      'nouser:live',
      'nouser:test-create',
    ]);
  });

  it("derives the newest builds' journeys from it: each step named once, each need an earlier step", () => {
    const names = NEWEST_BUILDS.map((step) => step.name);
    expect(new Set(names).size).toBe(names.length);
    NEWEST_BUILDS.forEach((step, index) => {
      expect({ step: step.name, unmet: (step.needs ?? []).filter((need) => !names.slice(0, index).includes(need)) }).toEqual({
        step: step.name,
        unmet: [],
      });
    });
    expect(NEWEST_BUILDS.filter((step) => step.method !== 'GET' && step.path.startsWith('/ctas/'))).toHaveLength(7);
  });

  it('checks what it says: a missing field, a wrong type, a wrong count and a wrong status are problems', () => {
    const step = stepNamed.get('list-DRAFT') as Step;
    const page = { ctas: [{ id: 1, name: 'a', ctaStatus: 'draft' }], totalPages: 1, totalEntries: 1 };
    const counts = { draft: 1, live: 0, scheduled: 0, paused: 0, concluded: 0, terminated: 0 };
    const answer = (data: Json, status = 200): TestResponse => ({ status, body: { data }, headers: {} });
    expect(problemsOf(step, answer({ ...page, statusWiseCount: counts }))).toEqual([]);
    expect(problemsOf(step, answer({ ...page, statusWiseCount: { ...counts, draft: 2 } }))).toEqual([
      'countOf data.ctas: 1 elements, data.statusWiseCount.draft is [2]',
    ]);
    expect(problemsOf(step, answer({ ...page, ctas: [{ id: '1', name: 'a', ctaStatus: 'live' }], statusWiseCount: counts }))).toEqual([
      'read data.ctas[].id: ["1"] is not number',
      'equals data.ctas[].ctaStatus: ["live"], not all "draft"',
    ]);
    const { totalPages: _pages, ...withoutPages } = page;
    expect(problemsOf(step, answer({ ...withoutPages, statusWiseCount: counts }))).toEqual(['read data.totalPages: missing']);
    expect(problemsOf(step, answer({}, 400))[0]).toMatch(/^status 400, expected 200/);
  });
});

eachDatabase('the real admin panel, replayed against /thunder (and the root)', (database) => {
  let api: TestApp;
  beforeAll(async () => {
    // `/` for the newest builds, which create and update at the root.
    api = await TestApp.start(database, { ADMIN_PREFIX_ALIASES: 'thunder,/', ADMIN_DEFAULT_USER: DEFAULT_USER });
  });
  afterAll(() => api.close());

  describe.each([
    ['with the user header', 'panel-with-user', RUN_WITH_USER],
    ['without it (ADMIN_DEFAULT_USER)', 'panel-without-user', RUN_WITHOUT_USER],
    ['of the newest builds (writes at the root, untouched schedules, the cohort picker, weeks)', 'panel-newest', NEWEST_BUILDS],
  ])('the run %s', (_run, tenant, steps) => {
    let run: PanelRun;
    beforeAll(() => {
      run = new PanelRun(api, tenant);
    });

    it.each(steps.map((step) => [step.name, step] as const))('%s', async (_name, step) => {
      expect(await run.send(step)).toEqual([]);
    });
  });
});
