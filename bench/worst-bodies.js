'use strict';
/**
 * The worst body of every route with a body (issue 27), part of bench/fair-work.js: for
 * each route a few bodies built to cost the most within the documented limits (BODY_LIMIT_BYTES
 * 1 MiB, SDK_BODY_LIMIT_BYTES 1 MiB, the member routes' 4 MiB, and each route's list caps), each
 * sent a few times one after another; the slowest candidate's median time against `JSON.parse` of
 * the same bytes (median, in this process, in the same run), and the service's CPU time per request
 * against it (from /proc: the part of the time that is the service's own work, not the database's).
 *
 * Beside each, the storage floor: what a bare mysql2 connection to the same server takes, in the
 * same run, to commit what the route must keep for that body (its rows and their bytes: the CTA row
 * and its audit entry, the 100,000 member rows, the user's state capped at 256 KiB, …). No
 * implementation that keeps those rows can answer faster, so the floor's own ratio to JSON.parse
 * shows where 5× is out of reach of any code (docs/benchmarks.md).
 */
const fs = require('node:fs');
const { RULE_EXAMPLE } = require('../dist/src/api-docs/flow-examples');
const { CREATE_TAG_EXAMPLE } = require('../dist/src/behaviour-tags/behaviour-tag-api-examples');
const {
  DEFAULT_LARGE_BODY_SLOTS,
  LARGE_BODY_BYTES,
  LARGE_BODY_BYTES_PER_SECOND,
  LARGE_BODY_LANE_SHARE,
  LARGE_BODY_MAX_PAUSE_MS,
} = require('../dist/src/http/large-body-lane');

const { sleep } = require('./service');

const SDK_HEADERS = { 'content-type': 'application/json', api_version: '1' };
/** Between two requests of one app user: longer than the pause the service puts between them (SDK_USER_BYTES_PER_SECOND). */
const USER_PACE_MS = 150;
const ADMIN_LIMIT = 1024 * 1024;
const SDK_LIMIT = 1024 * 1024;
/** The stored state of one app user is capped at this many bytes (docs/behaviour.md): what a delta or launch writes at most. */
const STATE_CAP = 256 * 1024;
const WARM_UP = 2;
const SAMPLES = 7;
/** The member routes write 100,000 rows a request: fewer rounds. */
const HEAVY = { warmUp: 1, samples: 3 };
/**
 * The restated target (docs/decisions/0021-benchmark-targets.md): a route's worst body within
 * TARGET_RATIO × (its JSON.parse + its storage floor) + TARGET_SLACK_MS, all measured in this run.
 */
const TARGET_RATIO = 5;
const TARGET_SLACK_MS = 50;
const targetMsOf = (row) => Number((TARGET_RATIO * (row.parseMs + row.floorMs) + TARGET_SLACK_MS).toFixed(1));
/**
 * After a large body, the lane hands its slot (and its tenant's turn) on after a pause, with the
 * service's default slots: the body's size at LARGE_BODY_BYTES_PER_SECOND's share per slot, or the
 * request's time × (slots / LARGE_BODY_LANE_SHARE − 1), at most LARGE_BODY_MAX_PAUSE_MS. Waited out, not timed.
 */
const lanePauseMs = (bytes, ms) =>
  bytes > LARGE_BODY_BYTES
    ? Math.min(
        LARGE_BODY_MAX_PAUSE_MS,
        Math.max(
          (bytes * DEFAULT_LARGE_BODY_SLOTS * 1000) / LARGE_BODY_BYTES_PER_SECOND,
          ms * (DEFAULT_LARGE_BODY_SLOTS / LARGE_BODY_LANE_SHARE - 1),
        ),
      ) + 10
    : 0;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** CPU seconds (user + system) of a process, from /proc; null where there is none. */
function cpuSecondsOf(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** The largest `count` ≤ `max` for which `build(count)` stays within `limit` bytes (build grows with count). */
function fill(build, limit, max = 1_000_000) {
  let [low, high] = [1, max];
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (Buffer.byteLength(build(middle)) <= limit) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** A valid rule of about `limit` bytes: the example's, with events of 100 comparisons each (the cap per condition). */
function bigRule(events, tag = 0) {
  const rule = JSON.parse(JSON.stringify(RULE_EXAMPLE));
  rule.priority = tag % 10;
  for (let event = 0; event < events; event++) {
    rule.stateTransition[`event_${event}`] = {
      0: [
        {
          transitionTo: '1',
          filters: {
            operator: 'AND',
            filter: Array.from({ length: 100 }, (_, index) => ({
              propertyName: `property_${index}`,
              propertyType: 'string',
              comparisonType: '=',
              comparisonValue: `value-${event}-${index}`,
            })),
          },
        },
      ],
    };
  }
  return rule;
}

const ctaBody = (name, rule) => ({
  name,
  description: 'worst body',
  tags: ['bench'],
  team: 'growth',
  startTime: null,
  endTime: null,
  rule,
});

/**
 * The worst delta bodies within SDK_LIMIT for a tenant with `ctaIds` live and `tags`: [name, make()]
 * (each `make()` a new body: new machines, later resetAt entries).
 */
function worstSdkBodies(ctaIds, tags) {
  let sequence = 0;
  const resetAt = (per) => {
    const base = Date.now() - 86_400_000 + ++sequence;
    return JSON.stringify({
      ctas: ctaIds.map((ctaId) => ({
        ctaId: String(ctaId),
        activeStateMachines: {},
        resetAt: Array.from({ length: per }, (_, index) => base + index * 1000 + ctaId),
      })),
    });
  };
  const resetAtPer = fill(resetAt, SDK_LIMIT, 10_000);
  const machines = (snapshots, perSnapshot, context) => {
    const now = Date.now();
    return JSON.stringify({
      ctas: ctaIds.slice(0, snapshots).map((ctaId) => ({
        ctaId: String(ctaId),
        activeStateMachines: Object.fromEntries(
          Array.from({ length: perSnapshot }, () => {
            const machine = ++sequence;
            return [`m${machine}`, { currentState: '1', lastTransitionAt: now + machine, createdAt: now, ...(context ? { context } : {}) }];
          }),
        ),
      })),
    });
  };
  const machinesPer = fill((count) => machines(1000, count), SDK_LIMIT, 1000);
  const wideSnapshots = fill((count) => machines(count, 1000), SDK_LIMIT, 1000);
  // A context nesting 58 levels (the whole body may nest 64), in every machine.
  const deep = JSON.parse(`${'{"a":'.repeat(58)}1${'}'.repeat(58)}`);
  const deepSnapshots = fill((count) => machines(count, 1, deep), SDK_LIMIT, 1000);
  const tagLists = (entries) => {
    const base = Date.now() - 86_400_000 + ++sequence;
    return JSON.stringify({
      behaviourTags: [
        {
          behaviourTagName: tags[0],
          exposureRule: {
            ctasResetAt: Array.from({ length: entries }, (_, index) => ({
              ctaId: String(ctaIds[index % ctaIds.length]),
              resetAt: base + index,
            })),
          },
          ctaRelation: { activeCtas: Array.from({ length: entries }, (_, index) => String(ctaIds[index % ctaIds.length])) },
        },
      ],
    });
  };
  const tagEntries = fill(tagLists, SDK_LIMIT, 10_000);
  return [
    [`1,000 CTAs × ${resetAtPer} resetAt entries`, () => resetAt(resetAtPer)],
    [`1,000 snapshots × ${machinesPer} new machines`, () => machines(1000, machinesPer)],
    [`${wideSnapshots} snapshots × 1,000 new machines (past the per-CTA cap)`, () => machines(wideSnapshots, 1000)],
    [`${deepSnapshots} machines with a context nesting 58 levels`, () => machines(deepSnapshots, 1, deep)],
    [`a tag with ${tagEntries} ctasResetAt and activeCtas entries`, () => tagLists(tagEntries)],
  ];
}

/**
 * The candidates of every route: [route, candidate, request(iteration) → {method, path, headers, body},
 * rounds, cleanup(iteration) → an untimed request after each, or null].
 * `wide` is a tenant with 1,000 live CTAs (`ctaIds`) and its tags; `admin` a tenant with `draftIds`.
 */
function candidates({ wide, ctaIds, tags, admin, draftIds, draftCta }) {
  const sdk = (path, user) => (body) => ({
    method: 'POST',
    path,
    headers: { ...SDK_HEADERS, 'x-tenant-id': wide, 'auth-userid': user },
    body,
  });
  const adminRequest = (method, path, body) => ({
    method,
    path,
    headers: { 'content-type': 'application/json', 'x-tenant-id': admin, user: 'bench@example.com' },
    body,
  });
  const sdkBodies = worstSdkBodies(ctaIds, tags);
  const rows = [];
  // The same user every time: their stored state is at the caps after the first request, the dearest case.
  for (const [name, body] of sdkBodies)
    rows.push(['POST /cta/state-machines/snapshot/delta', name, () => sdk('/cta/state-machines/snapshot/delta/', '7001')(body())]);
  for (const [name, body] of sdkBodies.slice(0, 2))
    rows.push(['POST /cta/active/state-machines', name, () => sdk('/cta/active/state-machines/', '7002')(body())]);

  const ruleEvents = fill((count) => JSON.stringify(ctaBody('x'.repeat(40), bigRule(count))), ADMIN_LIMIT - 1024, 200);
  const rule = bigRule(ruleEvents);
  const ruleName = `a rule of ${ruleEvents} events × 100 comparisons`;
  rows.push([
    'POST /engine/ctas/validate',
    ruleName,
    (i) => adminRequest('POST', '/engine/ctas/validate', JSON.stringify(ctaBody(`validate-${i}`, rule))),
  ]);
  rows.push([
    'POST /engine/ctas',
    ruleName,
    (i) => adminRequest('POST', '/engine/ctas/', JSON.stringify(ctaBody(`worst-${i}-${Date.now()}`, rule))),
  ]);
  rows.push([
    'PUT /engine/ctas/{id}',
    `${ruleName}, another priority each time`,
    (i) => {
      const { name: _fixed, ...update } = ctaBody('', bigRule(ruleEvents, i));
      return adminRequest('PUT', `/engine/ctas/${draftCta}`, JSON.stringify(update));
    },
  ]);
  const testUsers = Array.from({ length: 1000 }, (_, index) => String(9_000_000_000_000_000_000n + BigInt(index)));
  const testEvents = fill(
    (count) => JSON.stringify({ userIds: testUsers, expiresInMinutes: 60, rule: bigRule(count) }),
    ADMIN_LIMIT - 1024,
    200,
  );
  rows.push([
    'POST /engine/ctas/test/create',
    `1,000 users and a rule of ${testEvents} events × 100 comparisons`,
    () =>
      adminRequest(
        'POST',
        '/engine/ctas/test/create',
        JSON.stringify({ userIds: testUsers, expiresInMinutes: 60, rule: bigRule(testEvents) }),
      ),
  ]);
  rows.push([
    'PUT /engine/ctas/{id}/{action}',
    'a 1 MiB body (ignored, parsed)',
    (i) =>
      adminRequest(
        'PUT',
        `/engine/ctas/${draftIds[0]}/${i % 2 === 0 ? 'live' : 'pause'}`,
        JSON.stringify({ padding: 'x'.repeat(ADMIN_LIMIT - 100) }),
      ),
  ]);
  // A tag may link up to 1,000 CTAs: every create links them all, and an untimed update unlinks
  // them again so that the next create can link them; the description has no cap of its own.
  const tagBody = (name, description, linked) => ({
    ...CREATE_TAG_EXAMPLE,
    behaviourTagName: name,
    description,
    linkedCtas: linked ? draftIds.slice(1).map(String) : [],
  });
  const longDescription = (i) => `worst ${i} ${'x'.repeat(ADMIN_LIMIT - 2048 - 8 * draftIds.length)}`;
  const unlink = (name) => () => adminRequest('PUT', `/engine/behaviour-tags/${name}`, JSON.stringify(tagBody(name, null, false)));
  for (const [label, description] of [
    ['', () => 'worst'],
    [' and a 1 MiB description', longDescription],
  ]) {
    rows.push([
      'POST /engine/behaviour-tags',
      `${draftIds.length - 1} linked CTAs${label}`,
      (i) =>
        adminRequest(
          'POST',
          '/engine/behaviour-tags/',
          JSON.stringify(tagBody(`worst-tag${label ? '-long' : ''}-${i}`, description(i), true)),
        ),
      undefined,
      (i) => unlink(`worst-tag${label ? '-long' : ''}-${i}`)(),
    ]);
    rows.push([
      'PUT /engine/behaviour-tags/{name}',
      `${draftIds.length - 1} CTAs linked and unlinked in turn${label}`,
      (i) => adminRequest('PUT', '/engine/behaviour-tags/worst-tag-0', JSON.stringify(tagBody('worst-tag-0', description(i), i % 2 === 0))),
      undefined,
      // Ends with the CTAs free for the next candidate.
      (i) => (i % 2 === 0 ? unlink('worst-tag-0')() : null),
    ]);
  }
  const properties = (event, count) =>
    Array.from({ length: count }, (_, index) => ({
      propertyName: `p${event}_${index}`,
      type: 'String',
      isMandatory: index % 2 === 0,
      expectedValue: 'value',
      description: 'a property',
    }));
  const eventCount = fill(
    (count) =>
      JSON.stringify({
        events: Array.from({ length: count }, (_, event) => ({ eventName: `e${event}`, properties: properties(event, 1000) })),
      }),
    ADMIN_LIMIT - 1024,
    1000,
  );
  rows.push([
    'POST /engine/events',
    `${eventCount} events × 1,000 properties`,
    () =>
      adminRequest(
        'POST',
        '/engine/events/',
        JSON.stringify({
          events: Array.from({ length: eventCount }, (_, event) => ({ eventName: `e${event}`, properties: properties(event, 1000) })),
        }),
      ),
  ]);
  // As many events as a body may hold, each upsert replacing every one: a row and an audit entry per event.
  const manyEvents = (i, count) =>
    JSON.stringify({
      events: Array.from({ length: 1000 }, (_, event) => ({ eventName: `w${event}`, properties: properties(`${i}_${event}`, count) })),
    });
  const propertiesEach = fill((count) => manyEvents(0, count), ADMIN_LIMIT - 1024, 1000);
  rows.push([
    'POST /engine/events',
    `1,000 events × ${propertiesEach} properties, other properties each time`,
    (i) => adminRequest('POST', '/engine/events/', manyEvents(i, propertiesEach)),
  ]);
  rows.push([
    'PUT /engine/events/{name}',
    '1,000 properties',
    (i) => adminRequest('PUT', '/engine/events/e0', JSON.stringify({ properties: properties(i, 1000) })),
  ]);
  const cohortRule = (values) => ({
    all: Array.from({ length: 100 }, (_, index) => ({
      attribute: 'packageName',
      op: index % 2 ? 'in' : 'notIn',
      values: Array.from({ length: values }, (_, value) => `com.example.app${index}.${value}`),
    })),
  });
  const cohortValues = fill(
    (count) => JSON.stringify({ name: 'worst-cohort-x', kind: 'rule', rule: cohortRule(count) }),
    ADMIN_LIMIT - 1024,
    1000,
  );
  rows.push([
    'POST /engine/cohorts',
    `a rule of 100 conditions × ${cohortValues} values`,
    (i) =>
      adminRequest('POST', '/engine/cohorts/', JSON.stringify({ name: `worst-cohort-${i}`, kind: 'rule', rule: cohortRule(cohortValues) })),
  ]);
  rows.push([
    'PUT /engine/cohorts/{name}',
    `a rule of 100 conditions × ${cohortValues} values`,
    (i) =>
      adminRequest('PUT', '/engine/cohorts/worst-cohort-0', JSON.stringify({ description: `worst ${i}`, rule: cohortRule(cohortValues) })),
  ]);
  const members = (i) =>
    JSON.stringify({
      userIds: Array.from({ length: 100_000 }, (_, index) => String(-9_000_000_000_000_000_000n + BigInt(i * 100_000 + index))),
    });
  for (const method of ['POST', 'PUT', 'DELETE']) {
    rows.push([
      `${method} /engine/cohorts/{name}/members`,
      '100,000 ids as JSON',
      (i) => adminRequest(method, '/engine/cohorts/worst-static/members', members(i)),
      HEAVY,
    ]);
  }
  const template = 'x'.repeat(ADMIN_LIMIT - 200);
  rows.push([
    'POST /engine/nudge/preview',
    'a 1 MiB template',
    (i) => adminRequest('POST', '/engine/nudge/preview/', JSON.stringify({ id: `worst-${i % 2}`, template, ttl: 600 })),
  ]);
  return rows.map(([route, name, request, rounds = { warmUp: WARM_UP, samples: SAMPLES }, cleanup = () => null]) => ({
    route,
    name,
    request,
    cleanup,
    keeps: keeps(route),
    ...rounds,
  }));
}

/** An audit entry or a status change: a row of about this size besides the body's own. */
const SMALL_ROW = 512;

/**
 * What a route must keep for a body of `bytes` bytes, as rows: [count, bytes of each] (the least
 * any implementation writes: the row it changes, its audit entry, the rows the body names).
 */
function keeps(route) {
  const byRoute = {
    'POST /cta/state-machines/snapshot/delta': (bytes) => [[1, Math.min(bytes, STATE_CAP)]],
    'POST /cta/active/state-machines': (bytes) => [[1, Math.min(bytes, STATE_CAP)]],
    'POST /engine/ctas/validate': () => [],
    // The CTA row and its audit entry (`after`); an update's entry holds `before` too.
    'POST /engine/ctas': (bytes) => [[2, bytes]],
    'PUT /engine/ctas/{id}': (bytes) => [[3, bytes]],
    'POST /engine/ctas/test/create': (bytes) => [
      [2, bytes],
      [1000, 64],
    ],
    'PUT /engine/ctas/{id}/{action}': () => [[2, SMALL_ROW]],
    // The tag row and its audit entry (an update's holds `before` too), and the link rows.
    'POST /engine/behaviour-tags': (bytes) => [
      [2, bytes],
      [1000, 64],
    ],
    'PUT /engine/behaviour-tags/{name}': (bytes) => [
      [3, bytes],
      [1000, 64],
    ],
    'POST /engine/events': (bytes) => [[2, bytes]],
    'PUT /engine/events/{name}': (bytes) => [[3, bytes]],
    'POST /engine/cohorts': (bytes) => [[2, bytes]],
    'PUT /engine/cohorts/{name}': (bytes) => [[3, bytes]],
    'POST /engine/cohorts/{name}/members': () => [
      [100_000, 64],
      [1, SMALL_ROW],
    ],
    'PUT /engine/cohorts/{name}/members': () => [
      [100_000, 64],
      [1, SMALL_ROW],
    ],
    'DELETE /engine/cohorts/{name}/members': () => [
      [100_000, 64],
      [1, SMALL_ROW],
    ],
    'POST /engine/nudge/preview': (bytes) => [[1, bytes]],
  };
  return byRoute[route];
}

/**
 * The storage floor of `rows` ([count, bytes] pairs) on `connection` (a bare mysql2 connection):
 * one transaction inserting them into a scratch table, multi-row statements of up to 1,000 rows,
 * committed; ms.
 */
async function storageFloor(connection, rows) {
  const started = performance.now();
  await connection.beginTransaction();
  for (const [count, bytes] of rows) {
    const text = 'x'.repeat(bytes);
    for (let start = 0; start < count; start += 1000) {
      const chunk = Math.min(1000, count - start);
      await connection.query(
        `INSERT INTO bench_floor (body) VALUES ${new Array(chunk).fill('(?)').join(', ')}`,
        new Array(chunk).fill(text),
      );
    }
  }
  await connection.commit();
  const ms = performance.now() - started;
  await connection.query('DELETE FROM bench_floor');
  return ms;
}

async function send(base, { method, path, headers, body }) {
  const started = performance.now();
  const response = await fetch(`${base}${path}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, text, ms: performance.now() - started };
}

/** One candidate: `warmUp` + `samples` requests in a row; median time, CPU per request and JSON.parse time of its bodies. */
async function measureCandidate(service, candidate, floorConnection) {
  const { warmUp, samples } = candidate;
  const times = [];
  const parses = [];
  let bytes = 0;
  // The service's CPU from each timed request's start until the next untimed step (the cleanup, or the next request).
  let cpuSeconds = 0;
  let cpuSince = null;
  const cpuSpanEnds = () => {
    if (cpuSince === null) return;
    const now = cpuSecondsOf(service.pid);
    cpuSeconds = now === null ? null : cpuSeconds === null ? null : cpuSeconds + (now - cpuSince);
    cpuSince = null;
  };
  for (let iteration = 0; iteration < warmUp + samples; iteration++) {
    const request = candidate.request(iteration);
    // Not timed: one app user's next request waits for the pace of the last one.
    if (request.path.startsWith('/cta/')) await sleep(USER_PACE_MS);
    cpuSpanEnds();
    if (iteration >= warmUp) cpuSince = cpuSecondsOf(service.pid);
    const answer = await send(service.base, request);
    if (answer.status >= 300) throw new Error(`${candidate.route} (${candidate.name}): ${answer.status} ${answer.text.slice(0, 300)}`);
    // Not timed: what lets the next request do the same work again (a tag's CTAs unlinked).
    const cleanup = candidate.cleanup(iteration);
    if (cleanup) {
      cpuSpanEnds();
      const undone = await send(service.base, cleanup);
      if (undone.status >= 300)
        throw new Error(`${candidate.route} (${candidate.name}), after: ${undone.status} ${undone.text.slice(0, 300)}`);
    }
    // Not timed: the large-body lane's pause after this request.
    await sleep(lanePauseMs(Buffer.byteLength(request.body), answer.ms));
    if (iteration < warmUp) continue;
    times.push(answer.ms);
    bytes = Buffer.byteLength(request.body);
    for (let repeat = 0; repeat < 5; repeat++) {
      const started = performance.now();
      JSON.parse(request.body);
      parses.push(performance.now() - started);
    }
  }
  cpuSpanEnds();
  const ms = median(times);
  const parseMs = median(parses);
  const kept = candidate.keeps(bytes);
  const floors = [];
  for (let sample = 0; sample < (kept.length === 0 ? 0 : candidate.samples); sample++)
    floors.push(await storageFloor(floorConnection, kept));
  const floorMs = floors.length === 0 ? 0 : median(floors);
  return {
    route: candidate.route,
    name: candidate.name,
    bytes,
    ms: Number(ms.toFixed(2)),
    parseMs: Number(parseMs.toFixed(2)),
    ratio: Number((ms / parseMs).toFixed(1)),
    floorMs: Number(floorMs.toFixed(2)),
    floorRatio: Number((floorMs / parseMs).toFixed(1)),
    cpuMs: cpuSeconds === null ? null : Number(((1000 * cpuSeconds) / samples).toFixed(1)),
  };
}

/** Every route's candidates measured; per route the slowest, printed with its ratio to JSON.parse. */
async function measureWorstBodies(service, setting) {
  const measured = [];
  const floorConnection = await require('mysql2/promise').createConnection({ uri: setting.databaseUrl });
  await floorConnection.query('CREATE TABLE IF NOT EXISTS bench_floor (id BIGINT AUTO_INCREMENT PRIMARY KEY, body LONGTEXT NOT NULL)');
  try {
    for (const candidate of candidates(setting).filter((entry) => !setting.routes || setting.routes.test(entry.route))) {
      const row = await measureCandidate(service, candidate, floorConnection);
      console.log(
        `    ${row.route}, ${row.name}: ${row.ms} ms (${row.ratio}× JSON.parse; storage floor ${row.floorMs} ms, ${row.floorRatio}×)`,
      );
      measured.push(row);
    }
  } finally {
    await floorConnection.query('DROP TABLE bench_floor');
    await floorConnection.end();
  }
  const worst = new Map();
  for (const row of measured) {
    if (!worst.has(row.route) || worst.get(row.route).ms < row.ms) worst.set(row.route, row);
  }
  console.log(
    '  the worst body of each route (median of 7 after 2 warm-ups; member routes 3 after 1), against JSON.parse of the same bytes,',
  );
  console.log('  and the storage floor: a bare mysql2 transaction committing the rows the route must keep, same server, same run;');
  console.log(`  target: within ${TARGET_RATIO} × (JSON.parse + storage floor) + ${TARGET_SLACK_MS} ms:`);
  for (const row of worst.values()) {
    row.targetMs = targetMsOf(row);
    const cpu = row.cpuMs === null ? '' : `, service CPU ${row.cpuMs} ms (${(row.cpuMs / row.parseMs).toFixed(1)}×)`;
    console.log(
      `    ${row.ms <= row.targetMs ? 'PASS' : 'FAIL'} ${row.route}: ${row.name}, ${Math.round(row.bytes / 1024)} KiB: ${row.ms} ms against ${row.targetMs} ms; JSON.parse ${row.parseMs} ms (${row.ratio}×)${cpu}; storage floor ${row.floorMs} ms (${row.floorRatio}×)`,
    );
  }
  return { candidates: measured, worst: [...worst.values()], targetRatio: TARGET_RATIO, targetSlackMs: TARGET_SLACK_MS };
}

/**
 * The worst CTA create body (a rule of as many events as fit in BODY_LIMIT_BYTES), as text with a unique name
 * on each call: `make(name)`.
 */
function worstCtaCreate() {
  const ruleEvents = fill((count) => JSON.stringify(ctaBody('x'.repeat(40), bigRule(count))), ADMIN_LIMIT - 1024, 200);
  const [before, after] = JSON.stringify(ctaBody('\u0000', bigRule(ruleEvents))).split('\\u0000');
  return (name) => `${before}${name}${after}`;
}

module.exports = { measureWorstBodies, worstSdkBodies, worstCtaCreate, lanePauseMs };
