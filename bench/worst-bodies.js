'use strict';
/**
 * The worst body of every route with a body (issue 27), part of bench/fair-work.js: for
 * each route a few bodies built to cost the most within the documented limits (BODY_LIMIT_BYTES
 * 1 MiB, SDK_BODY_LIMIT_BYTES 512 KiB, the member routes' 4 MiB, and each route's list caps), each
 * sent a few times one after another; the slowest candidate's median time against `JSON.parse` of
 * the same bytes (median, in this process, in the same run), and the service's CPU time per request
 * against it (from /proc: the part of the time that is the service's own work, not the database's).
 */
const fs = require('node:fs');
const { RULE_EXAMPLE } = require('../dist/src/ctas/cta-api-examples');
const { CREATE_TAG_EXAMPLE } = require('../dist/src/behaviour-tags/behaviour-tag-api-examples');

const { sleep } = require('./service');

const SDK_HEADERS = { 'content-type': 'application/json', api_version: '1' };
/** Between two requests of one app user: longer than the pause the service puts between them (SDK_USER_BYTES_PER_SECOND). */
const USER_PACE_MS = 150;
const ADMIN_LIMIT = 1024 * 1024;
const SDK_LIMIT = 512 * 1024;
const WARM_UP = 2;
const SAMPLES = 7;
/** The member routes write 100,000 rows a request: fewer rounds. */
const HEAVY = { warmUp: 1, samples: 3 };
/** The worst body may take this many times JSON.parse of its bytes (issue 27). */
const TARGET_RATIO = 5;

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
 * The candidates of every route: [route, candidate, request(iteration) → {method, path, headers, body}].
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
  const perTag = Math.floor(draftIds.length / (WARM_UP + SAMPLES + 1));
  const tagBody = (i, description) => ({
    ...CREATE_TAG_EXAMPLE,
    behaviourTagName: `worst-tag-${i}`,
    description,
    linkedCtas: draftIds.slice(1 + i * perTag, 1 + (i + 1) * perTag).map(String),
  });
  rows.push([
    'POST /engine/behaviour-tags',
    `${perTag} linked CTAs`,
    (i) => adminRequest('POST', '/engine/behaviour-tags/', JSON.stringify(tagBody(i, 'worst'))),
  ]);
  rows.push([
    'PUT /engine/behaviour-tags/{name}',
    `${perTag} linked CTAs, another description each time`,
    (i) => adminRequest('PUT', '/engine/behaviour-tags/worst-tag-0', JSON.stringify(tagBody(0, `worst ${i}`))),
  ]);
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
  return rows.map(([route, name, request, rounds = { warmUp: WARM_UP, samples: SAMPLES }]) => ({ route, name, request, ...rounds }));
}

async function send(base, { method, path, headers, body }) {
  const started = performance.now();
  const response = await fetch(`${base}${path}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, text, ms: performance.now() - started };
}

/** One candidate: `warmUp` + `samples` requests in a row; median time, CPU per request and JSON.parse time of its bodies. */
async function measureCandidate(service, candidate) {
  const { warmUp, samples } = candidate;
  const times = [];
  const parses = [];
  let bytes = 0;
  let cpuBefore = null;
  for (let iteration = 0; iteration < warmUp + samples; iteration++) {
    const request = candidate.request(iteration);
    // Not timed: one app user's next request waits for the pace of the last one.
    if (request.path.startsWith('/cta/')) await sleep(USER_PACE_MS);
    if (iteration === warmUp) cpuBefore = cpuSecondsOf(service.pid);
    const answer = await send(service.base, request);
    if (answer.status >= 300) throw new Error(`${candidate.route} (${candidate.name}): ${answer.status} ${answer.text.slice(0, 300)}`);
    if (iteration < warmUp) continue;
    times.push(answer.ms);
    bytes = Buffer.byteLength(request.body);
    for (let repeat = 0; repeat < 5; repeat++) {
      const started = performance.now();
      JSON.parse(request.body);
      parses.push(performance.now() - started);
    }
  }
  const cpuAfter = cpuSecondsOf(service.pid);
  const ms = median(times);
  const parseMs = median(parses);
  return {
    route: candidate.route,
    name: candidate.name,
    bytes,
    ms: Number(ms.toFixed(2)),
    parseMs: Number(parseMs.toFixed(2)),
    ratio: Number((ms / parseMs).toFixed(1)),
    cpuMs: cpuBefore === null || cpuAfter === null ? null : Number(((1000 * (cpuAfter - cpuBefore)) / samples).toFixed(1)),
  };
}

/** Every route's candidates measured; per route the slowest, printed with its ratio to JSON.parse. */
async function measureWorstBodies(service, setting) {
  const measured = [];
  for (const candidate of candidates(setting)) {
    const row = await measureCandidate(service, candidate);
    console.log(`    ${row.route}, ${row.name}: ${row.ms} ms (${row.ratio}× JSON.parse)`);
    measured.push(row);
  }
  const worst = new Map();
  for (const row of measured) {
    if (!worst.has(row.route) || worst.get(row.route).ms < row.ms) worst.set(row.route, row);
  }
  console.log(
    '  the worst body of each route (median of 7 after 2 warm-ups; member routes 3 after 1), against JSON.parse of the same bytes:',
  );
  for (const row of worst.values()) {
    const cpu = row.cpuMs === null ? '' : `, service CPU ${row.cpuMs} ms (${(row.cpuMs / row.parseMs).toFixed(1)}×)`;
    console.log(
      `    ${row.ratio <= TARGET_RATIO ? 'PASS' : 'FAIL'} ${row.route}: ${row.name}, ${Math.round(row.bytes / 1024)} KiB: ${row.ms} ms, JSON.parse ${row.parseMs} ms, ${row.ratio}×${cpu}`,
    );
  }
  return { candidates: measured, worst: [...worst.values()], targetRatio: TARGET_RATIO };
}

module.exports = { measureWorstBodies, worstSdkBodies };
