'use strict';
/**
 * `npm run bench` (docs/decisions/0021-benchmark-targets.md, issue 6): the built service on SQLite and on
 * MariaDB with seeded tenants, measured with autocannon in one run against a
 * plain Fastify server answering the same launch bytes (the ceiling), and a bare
 * Nest + Fastify route answering them too (the framework floor, for reference), and a plain Fastify
 * server doing only the launch's own work (the work floor, bench/work-floor.js, for reference).
 *
 * On each database the ceiling, the floor, the launch and the launch with cohorts are measured in
 * interleaved rounds (closed loop), then latency at a fixed offered rate (docs/decisions/0021-benchmark-targets.md, issue 23):
 * the ceiling, the floor and the launch each get one third of the ceiling's closed-loop
 * throughput as autocannon's `overallRate`, interleaved likewise; p50/p99/p99.9 of each, and the
 * launch's p99 as a multiple of the ceiling's. Issue 23's targets are printed with PASS/FAIL.
 *
 * The launch from a client accepting gzip is measured beside one from a client that does not (issue 32: the
 * SDK routes are not compressed, so the two must cost the same).
 *
 * Launches are also measured with app-user tokens (issue 21): HS256 (SDK_JWT_SECRET) and RS256 from a
 * local JWKS URL, each service beside the one without tokens on the same database, with one token per
 * user (a verified token is cached, so this is what a launch costs an app), and with a new token on
 * every request (what a signature check costs).
 *
 * Insights (docs/decisions/0018-campaign-insights.md): a tenant of 1,000 CTAs with a year of folded rows
 * and 2,000 users' pending counts, read for one CTA and for the tenant over 366 days. With
 * BENCH_BASELINE, launches and delta merges of this build and of that one are measured in interleaved
 * rounds, each on a fresh database seeded alike (a change's cost, side by side in one run).
 *
 * Then bench/instances.js (several instances, bad actors) and bench/fair-work.js (issue 27: every
 * route's worst body against JSON.parse, isolation under abuse, unknown tenants, the attack).
 *
 *   BENCH_MYSQL_URL   default mysql://root@127.0.0.1:3306/cta_bench (schema recreated); "off" skips MariaDB
 *   BENCH_DURATION_S  seconds per measurement, default 8
 *   BENCH_BASELINE    a checkout of another version with its dist/ built (e.g. `git worktree add /tmp/base main`,
 *                     node_modules linked, `npm run build` there), measured beside this one
 */
const { fork } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');
const jose = require('jose');
const { openDatabase, seedTenant, seedCohorts, seedInsights, storedMachineKeys } = require('./seed');
const { benchInstances } = require('./instances');
const { benchFairWork, fairWorkTargets } = require('./fair-work');
const { MYSQL_URL, takePort, startService, mysqlReachable, recreateSchema, mariadbPid } = require('./service');

const DURATION = Number(process.env.BENCH_DURATION_S || 8);
const BASELINE = process.env.BENCH_BASELINE ? path.resolve(process.env.BENCH_BASELINE) : null;
const LAUNCH_CONNECTIONS = 50;
const MERGE_CONNECTIONS = 50;
const LIST_CONNECTIONS = 10;
const SMALL = { tenantId: 'bench-small', firstId: 1, extraCtas: 0, users: 100 };
const LARGE = { tenantId: 'bench-large', firstId: 1001, extraCtas: 10_000, users: 100_000 };
/** Like SMALL, but its 20 CTAs name 10 static cohorts of 100,000 members and 5 rule cohorts (docs/decisions/0008-cohorts.md). */
const COHORTS = {
  tenantId: 'bench-cohorts',
  firstId: 20_001,
  extraCtas: 0,
  users: 100,
  eligibility: (index) => ({ includes: [`static-${index % 10}`, `rule-${index % 5}`], excludes: [] }),
};
const COHORT_MEMBERS = 100_000;
/**
 * Like SMALL, with an exposure policy on (docs/exposure-policy.md): each launch counts the user's 5 actions
 * of the last day against a cap they stay under, so it serves what SMALL's does.
 */
const CAPPED = {
  tenantId: 'bench-capped',
  firstId: 60_001,
  extraCtas: 0,
  users: 100,
  exposurePolicy: { maxActions: 1000, window: { value: 1, unit: 'days' } },
};
/** 1,000 CTAs (20 live) with a year of insights (seedInsights). */
const INSIGHTS = { tenantId: 'bench-insights', firstId: 40_001, extraCtas: 980, users: 0 };
const INSIGHT_DAYS = 366;
const INSIGHT_PENDING_USERS = 2_000;
/** An operator or two reading: the latency of one read, not a queue of them. */
const INSIGHT_CONNECTIONS = 2;
const DAY_MS = 86_400_000;
const dayText = (day) => new Date(day * DAY_MS).toISOString().slice(0, 10);
/** The ids of every CTA `seedTenant` makes for `tenant`: 20 live ones, then `extraCtas`. */
const ctaIdsOf = (tenant) => Array.from({ length: 20 + tenant.extraCtas }, (_, index) => tenant.firstId + index);
const RULE_COHORTS = [
  { all: [{ attribute: 'appVersion', op: 'semverLt', value: '6.0' }] },
  { all: [{ attribute: 'packageName', op: 'eq', value: 'com.example.app' }, { bucket: { from: 0, to: 10 } }] },
  { any: [{ attribute: 'hotpatchVersion', op: 'in', values: ['v1', 'v2'] }, { bucket: { from: 0, to: 50, salt: 'half' } }] },
  { all: [{ cohort: 'static-0' }, { attribute: 'appVersion', op: 'semverGte', value: '5.0' }] },
  {
    all: [
      { attribute: 'packageName', op: 'notIn', values: ['com.other.app'] },
      { any: [{ attribute: 'appVersion', op: 'semverEq', value: '5.2' }] },
    ],
  },
];
/** The member upload measured: this many ids as one CSV. */
const UPLOAD_IDS = 1_000_000;
/**
 * Users the merges rotate over: enough that none reaches MAX_MACHINES_PER_CTA (100) in a run (a
 * quiet machine merges about 50,000 in 8 s), whose oldest-first drops would count as lost here.
 */
const MERGE_USERS = 2_000;
const FIRST_USER = 1_000_000_000;
const LAUNCH_PATH = '/cta/active/state-machines/';
const SDK_HEADERS = { 'content-type': 'application/json', api_version: '1', app_version: '5.2.0', package_name: 'com.example.app' };
const TOKEN_SECRET = 'bench-app-user-token-secret-of-32-bytes';
/** Distinct tokens for the runs with a new token per request (each is used once). */
const FRESH_TOKENS = 4000;

/** A reference server (`ceiling.js`, `nest-floor.js`) answering `body` to every launch. */
const startReference = (script, body) => startChild(script, { REFERENCE_BODY_B64: body.toString('base64') });

/** `script` as a child process on a free port, with `env`; answers when it says it is ready. */
async function startChild(script, env) {
  const port = await takePort();
  const child = fork(path.join(__dirname, script), { env: { ...process.env, PORT: String(port), ...env } });
  await new Promise((resolve) => child.once('message', resolve));
  return {
    base: `http://127.0.0.1:${port}`,
    pid: child.pid,
    stop: () => new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM'))),
  };
}

/**
 * Rotating users: each request is a launch of the next user of `count`. With `tokens` (one list
 * per user), the request carries the user's next token as its bearer.
 */
function rotatingUsers(count, tenantId, tokens) {
  let next = 0;
  return (request) => {
    const sequence = next++;
    const user = sequence % count;
    const authorization = tokens ? { authorization: `Bearer ${tokens[user][Math.floor(sequence / count) % tokens[user].length]}` } : {};
    request.headers = { ...request.headers, 'x-tenant-id': tenantId, 'auth-userid': String(FIRST_USER + user), ...authorization };
    return request;
  };
}

/**
 * App-user tokens for `users` users, `perUser` each (distinct by jti), signed by `key`: one
 * per user is what apps send; many make every request a new token.
 */
async function mintTokens(key, header, users, perUser, label) {
  const now = Math.floor(Date.now() / 1000);
  const tokens = [];
  for (let user = 0; user < users; user++) {
    const own = [];
    for (let index = 0; index < perUser; index++) {
      own.push(
        await new jose.SignJWT({ sub: String(FIRST_USER + user), jti: `${label}-${user}-${index}` })
          .setProtectedHeader(header)
          .setIssuedAt(now)
          .setExpirationTime(now + 3600)
          .sign(key),
      );
    }
    tokens.push(own);
  }
  return tokens;
}

/** An HS256 secret and an RS256 key pair published as a JWKS on a local port, with tokens of both. */
async function startTokenIssuer(users) {
  const secret = new TextEncoder().encode(TOKEN_SECRET);
  const { privateKey, publicKey } = await jose.generateKeyPair('RS256');
  const jwk = { ...(await jose.exportJWK(publicKey)), kid: 'bench-1', alg: 'RS256', use: 'sig' };
  const server = http.createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })),
  );
  const port = await takePort();
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  const rs256 = { alg: 'RS256', kid: 'bench-1' };
  const perUserFresh = Math.ceil(FRESH_TOKENS / users);
  const started = Date.now();
  const issuer = {
    jwksUrl: `http://127.0.0.1:${port}/jwks.json`,
    hs256: await mintTokens(secret, { alg: 'HS256' }, users, 1, 'app'),
    rs256: await mintTokens(privateKey, rs256, users, 1, 'app'),
    hs256Fresh: await mintTokens(secret, { alg: 'HS256' }, users, perUserFresh, 'fresh'),
    rs256Fresh: await mintTokens(privateKey, rs256, users, perUserFresh, 'fresh'),
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
  console.log(`  app-user tokens minted in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return issuer;
}

const CLOCK_TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) a process has used, from /proc; null where there is none. */
function cpuSecondsOf(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** A row's CPU per request as printed, the database server's beside it when measured. */
function cpuText(row) {
  if (row.cpuMsPerRequest === undefined) return '';
  const database = row.databaseCpuMsPerRequest === undefined ? '' : ` (+ ${row.databaseCpuMsPerRequest} ms the database server's)`;
  return `, ${row.cpuMsPerRequest} ms CPU/request${database}`;
}

/**
 * One autocannon run. With `server` (its pid), also the server's CPU time per request: on a
 * shared machine throughput follows the load of others, CPU per request much less. A server
 * with a `databasePid` (on MariaDB) also gets the database server's CPU per request.
 */
async function measure(name, options, server) {
  const cpuBefore = server ? cpuSecondsOf(server.pid) : null;
  const databaseCpuBefore = server?.databasePid ? cpuSecondsOf(server.databasePid) : null;
  // A fixed number of requests (`amount`) or, by default, DURATION seconds.
  const result = await autocannon(options.amount ? options : { duration: DURATION, ...options });
  const cpuAfter = server ? cpuSecondsOf(server.pid) : null;
  const databaseCpuAfter = server?.databasePid ? cpuSecondsOf(server.databasePid) : null;
  const row = {
    name,
    connections: options.connections,
    requestsPerSecond: Math.round(result.requests.average),
    requests: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
  if (cpuBefore !== null && cpuAfter !== null && result.requests.total > 0) {
    row.cpuMsPerRequest = Number(((1000 * (cpuAfter - cpuBefore)) / result.requests.total).toFixed(3));
  }
  if (databaseCpuBefore !== null && databaseCpuAfter !== null && result.requests.total > 0) {
    row.databaseCpuMsPerRequest = Number(((1000 * (databaseCpuAfter - databaseCpuBefore)) / result.requests.total).toFixed(3));
  }
  console.log(
    `  ${name}: ${row.requestsPerSecond} req/s, p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms${cpuText(row)}${row.non2xx || row.errors ? `, ${row.non2xx} non-2xx, ${row.errors} errors` : ''}`,
  );
  return row;
}

/** The offered rate of the latency runs: this fraction of the ceiling's closed-loop throughput. */
const FIXED_RATE_SHARE = 1 / 3;

/**
 * `variants` ([name, options]) at the same fixed offered rate (autocannon's `overallRate`, spread
 * over the connections) in ROUNDS interleaved rounds of ROUND_SECONDS, turned as measureInterleaved's are:
 * p50/p99/p99.9 over every 2xx response of all rounds, from each response's own time
 * (autocannon's histogram keeps whole milliseconds, too coarse at these loads).
 */
async function measureInterleavedAtRate(variants, rate) {
  const runs = variants.map(() => ({ times: [], requests: 0, non2xx: 0, errors: 0 }));
  for (let round = 0; round < ROUNDS; round++) {
    for (let turn = 0; turn < variants.length; turn++) {
      const index = (round + turn) % variants.length;
      const [, options] = variants[index];
      const run = autocannon({ ...options, duration: ROUND_SECONDS, overallRate: rate });
      run.on('response', (_client, status, _bytes, milliseconds) => {
        if (status >= 200 && status < 300) runs[index].times.push(milliseconds);
      });
      const result = await run;
      runs[index].requests += result.requests.total;
      runs[index].non2xx += result.non2xx;
      runs[index].errors += result.errors + result.timeouts;
    }
  }
  return variants.map(([name, options], index) => {
    const { times, requests, non2xx, errors } = runs[index];
    if (times.length === 0) throw new Error(`${name}: no answer at ${rate} req/s`);
    times.sort((a, b) => a - b);
    const percentile = (share) => Number(times[Math.min(times.length - 1, Math.ceil(share * times.length) - 1)].toFixed(2));
    const row = {
      name,
      connections: options.connections,
      offeredRate: rate,
      requestsPerSecond: Math.round(requests / (ROUNDS * ROUND_SECONDS)),
      p50Ms: percentile(0.5),
      p99Ms: percentile(0.99),
      p999Ms: percentile(0.999),
      non2xx,
      errors,
    };
    console.log(
      `  ${name} at ${rate} req/s: p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms, p99.9 ${row.p999Ms} ms${non2xx || errors ? `, ${non2xx} non-2xx, ${errors} errors` : ''}`,
    );
    return row;
  });
}

const ROUNDS = 8;
const WARM_UP_SECONDS = 4;
const ROUND_SECONDS = 2;

/**
 * `variants` ([name, options, server]) measured in ROUNDS rounds, each variant once per
 * round for ROUND_SECONDS (after a warm-up each), the order turned by one each round so that
 * no variant always runs first or right after the same one. Per variant: req/s and CPU per
 * request over all its rounds, p50 and p99 of its median round.
 */
async function measureInterleaved(variants) {
  // A warm-up each: the service without tokens has served several runs already, and a process
  // measured colder spends visibly more CPU per request in its first rounds.
  for (const [, options] of variants) {
    await measure('warm-up', { ...options, duration: WARM_UP_SECONDS });
  }
  const runs = variants.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (let turn = 0; turn < variants.length; turn++) {
      const index = (round + turn) % variants.length;
      const [name, options, server] = variants[index];
      runs[index].push(await measure(`${name}, round ${round + 1}`, { ...options, duration: ROUND_SECONDS }, server));
    }
  }
  return variants.map(([name, options], index) => {
    const rounds = runs[index];
    const median = [...rounds].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(rounds.length / 2)];
    const requests = rounds.reduce((sum, row) => sum + row.requests, 0);
    const row = {
      name,
      connections: options.connections,
      requestsPerSecond: Math.round(requests / (rounds.length * ROUND_SECONDS)),
      p50Ms: median.p50Ms,
      p99Ms: median.p99Ms,
      non2xx: rounds.reduce((sum, round) => sum + round.non2xx, 0),
      errors: rounds.reduce((sum, round) => sum + round.errors, 0),
      rounds: rounds.map((round) => round.requestsPerSecond),
    };
    for (const field of ['cpuMsPerRequest', 'databaseCpuMsPerRequest']) {
      if (rounds.every((round) => round[field] !== undefined)) {
        row[field] = Number((rounds.reduce((sum, round) => sum + round[field] * round.requests, 0) / requests).toFixed(3));
      }
    }
    console.log(`  ${name}: ${row.requestsPerSecond} req/s over ${rounds.length} rounds${cpuText(row)}`);
    return row;
  });
}

const launchOptions = (base, users, tenantId, tokens) => ({
  url: base,
  connections: LAUNCH_CONNECTIONS,
  requests: [{ method: 'POST', path: LAUNCH_PATH, headers: SDK_HEADERS, body: '{}', setupRequest: rotatingUsers(users, tenantId, tokens) }],
});

/** The same launches from a client that accepts compressed answers (OkHttp, under most Android SDKs, asks for gzip by default). */
const acceptingGzip = (options) => ({
  ...options,
  requests: options.requests.map((request) => ({ ...request, headers: { ...request.headers, 'accept-encoding': 'gzip' } })),
});

/** Launches with a new token every request: each of the FRESH_TOKENS tokens once (cache misses only). */
const freshTokenOptions = (base, tokens) => ({
  ...launchOptions(base, SMALL.users, SMALL.tenantId, tokens),
  amount: FRESH_TOKENS,
});

/**
 * Delta merges: every request adds a new machine (unique key, starting with `keyPrefix`) for one
 * of MERGE_USERS users; acknowledged keys are recorded.
 */
function mergeOptions(base, ctaId, acknowledged, keyPrefix = 'm') {
  let sequence = 0;
  return {
    url: base,
    connections: MERGE_CONNECTIONS,
    requests: [
      {
        method: 'POST',
        path: '/cta/state-machines/snapshot/delta/',
        setupRequest: (request, context) => {
          const user = String(FIRST_USER + 200_000 + (sequence % MERGE_USERS));
          const key = `${keyPrefix}-${sequence++}`;
          const now = Date.now();
          context.key = `${user}/${key}`;
          return {
            ...request,
            headers: { ...SDK_HEADERS, 'x-tenant-id': SMALL.tenantId, 'auth-userid': user },
            body: JSON.stringify({
              ctas: [
                {
                  ctaId: String(ctaId),
                  activeStateMachines: { [key]: { currentState: '1', lastTransitionAt: now, createdAt: now, context: { storeId: key } } },
                },
              ],
            }),
          };
        },
        onResponse: (status, _body, context) => {
          if (status === 200) acknowledged.add(context.key);
        },
      },
    ],
  };
}

async function prepareDatabase(kind, suffix = '') {
  if (kind === 'sqlite') {
    const file = path.join(os.tmpdir(), `cta-bench-${process.pid}${suffix}.sqlite`);
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
    return {
      url: `sqlite:${file}`,
      cleanup: async () => ['', '-wal', '-shm'].forEach((suffix) => fs.rmSync(file + suffix, { force: true })),
    };
  }
  const url = await recreateSchema(`${new URL(MYSQL_URL).pathname.slice(1)}${suffix.replace(/-/g, '_')}`);
  return { url: url.toString(), cleanup: async () => undefined };
}

/**
 * Processes of each build in the comparison with BENCH_BASELINE: two processes of one build measured
 * 1–13% apart in the same interleaved rounds here (docs/benchmarks.md), so each build's figures are
 * those of two processes, not one's.
 */
const PROCESSES_PER_BUILD = 2;

/** A fresh database with the SMALL tenant, and PROCESSES_PER_BUILD fresh services of the build in `root` on it. */
async function buildServices(kind, suffix, root) {
  const database = await prepareDatabase(kind, suffix);
  const seeding = await startService(database.url, {}, root);
  const db = await openDatabase(database.url);
  const [ctaId] = await seedTenant(db, { ...SMALL, now: Date.now() }, root);
  await db.close();
  await seeding.stop();
  const services = [];
  for (let index = 0; index < PROCESSES_PER_BUILD; index++) services.push(await startService(database.url, {}, root));
  return {
    services,
    ctaId,
    stop: async () => (await Promise.all(services.map((service) => service.stop())), await database.cleanup()),
  };
}

/** One build's figures from its processes' rows: throughput averaged, CPU per request over all their requests. */
function buildRow(name, rows) {
  const requests = rows.reduce((sum, row) => sum + row.requestsPerSecond, 0);
  const row = {
    name,
    connections: rows[0].connections,
    requestsPerSecond: Math.round(requests / rows.length),
    p50Ms: Math.max(...rows.map((each) => each.p50Ms)),
    p99Ms: Math.max(...rows.map((each) => each.p99Ms)),
    non2xx: rows.reduce((sum, each) => sum + each.non2xx, 0),
    errors: rows.reduce((sum, each) => sum + each.errors, 0),
    processes: rows,
  };
  if (rows.every((each) => each.cpuMsPerRequest !== undefined)) {
    row.cpuMsPerRequest = Number(
      (rows.reduce((sum, each) => sum + each.cpuMsPerRequest * each.requestsPerSecond, 0) / requests).toFixed(3),
    );
  }
  return row;
}

/**
 * `variantOf(service, build, number)` for each process of both builds, measured in interleaved rounds
 * (this build's and the baseline's processes alternating), then one row per build.
 */
async function measureBuilds(current, baseline, variantOf) {
  const variants = [];
  for (let index = 0; index < PROCESSES_PER_BUILD; index++) {
    variants.push(variantOf(current.services[index], 'this', index + 1), variantOf(baseline.services[index], 'baseline', index + 1));
  }
  const rows = await measureInterleaved(variants);
  const ofBuild = (first) => rows.filter((_row, index) => index % 2 === first);
  return [ofBuild(0), ofBuild(1)];
}

/**
 * Launches, then delta merges, of this build and of BENCH_BASELINE's, in interleaved rounds, each on
 * a fresh database seeded alike, so that neither merges into documents the other's earlier runs grew:
 * a regression of either shows in one run, whatever the machine.
 */
async function measureAgainstBaseline(kind) {
  const current = await buildServices(kind, '-merge-this', undefined);
  const baseline = await buildServices(kind, '-merge-baseline', BASELINE);
  const baselineName = path.basename(BASELINE);
  const buildName = (build) => (build === 'this' ? 'this build' : `baseline build (${baselineName})`);
  try {
    const [launchesThis, launchesBaseline] = await measureBuilds(current, baseline, (service, build, number) => [
      `launch, ${buildName(build)}, process ${number}`,
      launchOptions(service.base, SMALL.users, SMALL.tenantId),
      service,
    ]);
    const launchThisBuild = buildRow('launch, this build', launchesThis);
    const launchBaseline = buildRow(`launch, ${buildName('baseline')}`, launchesBaseline);
    console.log(
      `  launches of this build against the baseline's: ${slowerBy(1 - launchThisBuild.requestsPerSecond / launchBaseline.requestsPerSecond)}`,
    );
    const [mergesThis, mergesBaseline] = await measureBuilds(current, baseline, (service, build, number) => [
      `delta merge, ${buildName(build)}, process ${number}`,
      mergeOptions(service.base, build === 'this' ? current.ctaId : baseline.ctaId, new Set(), `${build}${number}`),
      service,
    ]);
    const mergeThisBuild = buildRow('delta merge, this build', mergesThis);
    const mergeBaseline = buildRow(`delta merge, ${buildName('baseline')}`, mergesBaseline);
    console.log(
      `  merges of this build against the baseline's: ${slowerBy(1 - mergeThisBuild.requestsPerSecond / mergeBaseline.requestsPerSecond)}`,
    );
    return { launchThisBuild, launchBaseline, mergeThisBuild, mergeBaseline };
  } finally {
    await current.stop();
    await baseline.stop();
  }
}

/** GETs of an admin route of the INSIGHTS tenant, after checking that it answers 200. */
async function measureInsightsRead(service, name, pathAndQuery) {
  const url = `${service.base}/engine${pathAndQuery}`;
  const headers = { 'x-tenant-id': INSIGHTS.tenantId };
  const check = await fetch(url, { headers });
  if (check.status !== 200) throw new Error(`${pathAndQuery} answered ${check.status}: ${(await check.text()).slice(0, 300)}`);
  return measure(name, { url, connections: INSIGHT_CONNECTIONS, headers }, service);
}

async function launchBytes(base, tenantId, token, userId = FIRST_USER) {
  const response = await fetch(base + LAUNCH_PATH, {
    method: 'POST',
    headers: {
      ...SDK_HEADERS,
      'x-tenant-id': tenantId,
      'auth-userid': String(userId),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: '{}',
  });
  const body = Buffer.from(await response.arrayBuffer());
  const parsed = JSON.parse(body.toString());
  if (response.status !== 200 || parsed.data.ctas.length !== 20 || parsed.data.behaviourTags.length !== 3) {
    throw new Error(`unexpected launch answer ${response.status}: ${body.toString().slice(0, 300)}`);
  }
  return body;
}

/** One PUT of UPLOAD_IDS ids as text/csv to a new static cohort, timed end to end. */
async function measureUpload(base) {
  const headers = { 'x-tenant-id': 'bench-upload', user: 'bench@example.com' };
  const created = await fetch(`${base}/engine/cohorts`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'upload', kind: 'static' }),
  });
  if (created.status !== 200) throw new Error(`cohort create answered ${created.status}`);
  const csv = `userId\n${Array.from({ length: UPLOAD_IDS }, (_, index) => String(FIRST_USER + 7 * index)).join('\n')}\n`;
  const started = Date.now();
  const response = await fetch(`${base}/engine/cohorts/upload/members`, {
    method: 'PUT',
    headers: { ...headers, 'content-type': 'text/csv' },
    body: csv,
  });
  const seconds = (Date.now() - started) / 1000;
  const answer = await response.json();
  if (response.status !== 200 || answer.data.memberCount !== UPLOAD_IDS)
    throw new Error(`upload answered ${response.status}: ${JSON.stringify(answer)}`);
  console.log(`  cohort upload: ${UPLOAD_IDS} ids (${(csv.length / 1e6).toFixed(1)} MB CSV) in ${seconds.toFixed(1)} s`);
  return { name: `cohort upload (PUT ${UPLOAD_IDS.toLocaleString('en')} ids as CSV)`, seconds, bytes: csv.length };
}

const CEILING_NAME = 'plain Fastify, same launch bytes';
const FLOOR_NAME = 'bare Nest + Fastify route, same launch bytes';
const WORK_FLOOR_NAME = "plain Fastify doing the launch's own work (the user's row read, the user's answer copied)";

/**
 * The work floor (bench/work-floor.js) on `database`: each of the `tenant`'s users answered the
 * bytes `service` answers them, after a read of their row.
 */
async function startWorkFloor(database, service, tenant) {
  const answers = {};
  for (let user = 0; user < tenant.users; user++) {
    answers[FIRST_USER + user] = (await launchBytes(service.base, tenant.tenantId, undefined, FIRST_USER + user)).toString('base64');
  }
  const answersFile = path.join(os.tmpdir(), `bench-work-floor-${process.pid}.json`);
  fs.writeFileSync(answersFile, JSON.stringify({ tenantId: tenant.tenantId, answers }));
  const workFloor = await startChild('work-floor.js', { WORK_FLOOR_DB_URL: database.url, WORK_FLOOR_ANSWERS: answersFile });
  return { ...workFloor, stop: () => workFloor.stop().then(() => fs.rmSync(answersFile, { force: true })) };
}

/** The ceiling and the framework floor answering `body`, kept running for the whole bench. */
async function startReferences(body) {
  const ceiling = await startReference('ceiling.js', body);
  const floor = await startReference('nest-floor.js', body);
  return { ceiling, floor, stop: () => Promise.all([ceiling.stop(), floor.stop()]) };
}

/**
 * The ceiling, the floor, the launch, the launch with cohorts and the work floor: closed-loop
 * throughput in interleaved rounds (so that the load of a shared machine drifting during the run
 * weighs on all alike), then the first three's latency at a third of the ceiling's throughput,
 * interleaved too.
 */
async function measureAgainstReferences(references, service, workFloor) {
  const variants = [
    [CEILING_NAME, launchOptions(references.ceiling.base, SMALL.users, SMALL.tenantId), references.ceiling],
    [FLOOR_NAME, launchOptions(references.floor.base, SMALL.users, SMALL.tenantId), references.floor],
    ['launch (20 CTAs, 100 users)', launchOptions(service.base, SMALL.users, SMALL.tenantId), service],
    [
      'launch (20 CTAs naming 10 static cohorts of 100,000 and 5 rule cohorts)',
      launchOptions(service.base, COHORTS.users, COHORTS.tenantId),
      service,
    ],
    [WORK_FLOOR_NAME, launchOptions(workFloor.base, SMALL.users, SMALL.tenantId), workFloor],
  ];
  const [ceiling, floor, launch, launchCohorts, workFloorRow] = await measureInterleaved(variants);
  const rate = Math.max(1, Math.round(ceiling.requestsPerSecond * FIXED_RATE_SHARE));
  console.log(`  latency at ${rate} req/s, a third of the ceiling's closed-loop throughput:`);
  const [ceilingAtRate, floorAtRate, launchAtRate] = await measureInterleavedAtRate(variants.slice(0, 3), rate);
  return {
    ceiling,
    floor,
    workFloor: workFloorRow,
    launch,
    launchCohorts,
    rate,
    latency: { ceiling: ceilingAtRate, floor: floorAtRate, launch: launchAtRate },
  };
}

/** Everything measured on one database; the references are started with the first one's launch bytes. */
async function benchDatabase(kind, results, references) {
  console.log(`\n${kind}: seeding`);
  const database = await prepareDatabase(kind);
  let service = await startService(database.url);
  const db = await openDatabase(database.url);
  // On MariaDB a launch's CPU counts the database server's too (issue 44).
  const databasePid = kind === 'mysql' ? mariadbPid() : null;
  const now = Date.now();
  const started = Date.now();
  const smallIds = await seedTenant(db, { ...SMALL, now });
  await seedTenant(db, { ...LARGE, now });
  await seedTenant(db, { ...COHORTS, now });
  await seedTenant(db, { ...INSIGHTS, now });
  await seedTenant(db, { ...CAPPED, now });
  const insightCtas = ctaIdsOf(INSIGHTS);
  const today = Math.floor(now / DAY_MS);
  await seedInsights(db, {
    tenantId: INSIGHTS.tenantId,
    ctaIds: insightCtas,
    days: INSIGHT_DAYS,
    today,
    pendingUsers: INSIGHT_PENDING_USERS,
    now,
  });
  await seedCohorts(db, {
    tenantId: COHORTS.tenantId,
    firstId: 1,
    statics: 10,
    members: COHORT_MEMBERS,
    firstUser: FIRST_USER,
    rules: RULE_COHORTS,
    now,
  });
  console.log(`  seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  // A fresh process, so nothing cached from before the seed and the statements are cold.
  await service.stop();
  service = { ...(await startService(database.url)), databasePid };
  const issuer = await startTokenIssuer(SMALL.users);
  // Beside it, on the same database: the same service verifying app-user tokens.
  const hs256Service = await startService(database.url, { SDK_JWT_SECRET: TOKEN_SECRET });
  const rs256Service = await startService(database.url, { SDK_JWT_JWKS_URL: issuer.jwksUrl });
  const body = await launchBytes(service.base, SMALL.tenantId);
  await launchBytes(service.base, LARGE.tenantId);
  for (const [tokenService, tokens] of [
    [hs256Service, issuer.hs256],
    [rs256Service, issuer.rs256],
  ]) {
    if (!(await launchBytes(tokenService.base, SMALL.tenantId, tokens[0][0])).equals(body))
      throw new Error('a launch with a token answered other bytes');
  }
  const rows = {};
  let measured;
  const workFloor = { ...(await startWorkFloor(database, service, SMALL)), databasePid };
  try {
    if (!references.ceiling) Object.assign(references, await startReferences(body));
    measured = await measureAgainstReferences(references, service, workFloor);
    rows.launch = measured.launch;
    rows.launchCohorts = measured.launchCohorts;
    rows.launchLarge = await measure('launch (10,020 CTAs, 100,000 users)', launchOptions(service.base, LARGE.users, LARGE.tenantId));
    // Tokens against none, in interleaved rounds on services side by side, so that the load of a
    // shared machine drifting during the run weighs on all three alike.
    const tokenRuns = await measureInterleaved([
      ['launch without tokens (interleaved with the two below)', launchOptions(service.base, SMALL.users, SMALL.tenantId), service],
      [
        'launch, HS256 app-user tokens (20 CTAs, 100 users)',
        launchOptions(hs256Service.base, SMALL.users, SMALL.tenantId, issuer.hs256),
        hs256Service,
      ],
      [
        'launch, RS256 app-user tokens from a JWKS (20 CTAs, 100 users)',
        launchOptions(rs256Service.base, SMALL.users, SMALL.tenantId, issuer.rs256),
        rs256Service,
      ],
    ]);
    [rows.launchInterleaved, rows.launchHs256, rows.launchRs256] = tokenRuns;
    rows.launchHs256Fresh = await measure(
      `launch, HS256, a new token every request (${FRESH_TOKENS} requests)`,
      freshTokenOptions(hs256Service.base, issuer.hs256Fresh),
      hs256Service,
    );
    rows.launchRs256Fresh = await measure(
      `launch, RS256, a new token every request (${FRESH_TOKENS} requests)`,
      freshTokenOptions(rs256Service.base, issuer.rs256Fresh),
      rs256Service,
    );
    if (rows.launchInterleaved.cpuMsPerRequest !== undefined) {
      const extra = (row) => (row.cpuMsPerRequest - rows.launchInterleaved.cpuMsPerRequest).toFixed(3);
      console.log(
        `  CPU a launch adds with tokens: cached HS256 ${extra(rows.launchHs256)} ms, cached RS256 ${extra(rows.launchRs256)} ms; ` +
          `new token HS256 ${extra(rows.launchHs256Fresh)} ms, new token RS256 ${extra(rows.launchRs256Fresh)} ms`,
      );
    }
    // Compression (issue 32) leaves the SDK routes out: a launch for a client accepting gzip must cost what one for a client that does not.
    [rows.launchNoAcceptEncoding, rows.launchAcceptingGzip] = await measureInterleaved([
      ['launch, no Accept-Encoding (interleaved with the one below)', launchOptions(service.base, SMALL.users, SMALL.tenantId), service],
      [
        'launch, Accept-Encoding: gzip (answered uncompressed)',
        acceptingGzip(launchOptions(service.base, SMALL.users, SMALL.tenantId)),
        service,
      ],
    ]);
    // The exposure policy (issue 43): a launch with it on against one with it off.
    [rows.launchPolicyOff, rows.launchPolicyOn] = await measureInterleaved([
      ['launch, no exposure policy (interleaved with the one below)', launchOptions(service.base, SMALL.users, SMALL.tenantId), service],
      [
        'launch, exposure policy on (5 actions a user counted, under the cap)',
        launchOptions(service.base, CAPPED.users, CAPPED.tenantId),
        service,
      ],
    ]);
    const acknowledged = new Set();
    rows.merge = await measure('delta merge', mergeOptions(service.base, smallIds[0], acknowledged));
    const stored = await storedMachineKeys(db, SMALL.tenantId, smallIds[0]);
    const lost = [...acknowledged].filter((key) => !stored.has(key)).length;
    rows.merge.acknowledged = acknowledged.size;
    rows.merge.lostUpdates = lost;
    console.log(`  merges acknowledged ${acknowledged.size}, stored ${stored.size}, lost ${lost}`);
    const list = await fetch(`${service.base}/engine/ctas/?pageSize=20&status=live&teams=growth,store`, {
      headers: { 'x-tenant-id': LARGE.tenantId },
    });
    if (list.status === 200) {
      rows.ctaList = await measure('CTA list (10,020 CTAs)', {
        url: `${service.base}/engine/ctas/?pageSize=20&status=live&teams=growth,store`,
        connections: LIST_CONNECTIONS,
        headers: { 'x-tenant-id': LARGE.tenantId },
      });
    } else {
      console.log(`  CTA list not measured: GET /engine/ctas/ answered ${list.status}`);
    }
    const year = `from=${dayText(today - INSIGHT_DAYS + 1)}&to=${dayText(today)}`;
    rows.insightsCta = await measureInsightsRead(
      service,
      `insights of one CTA over ${INSIGHT_DAYS} days (1,000 CTAs, ${INSIGHT_PENDING_USERS.toLocaleString('en')} users pending)`,
      `/ctas/${insightCtas[0]}/insights?${year}`,
    );
    rows.insightsOverview = await measureInsightsRead(
      service,
      `insights of the tenant's 1,000 CTAs over ${INSIGHT_DAYS} days (${INSIGHT_PENDING_USERS.toLocaleString('en')} users pending)`,
      `/insights?${year}`,
    );
    rows.cohortUpload = await measureUpload(service.base);
  } finally {
    await Promise.all([service.stop(), hs256Service.stop(), rs256Service.stop(), workFloor.stop()]);
    await issuer.stop();
    await db.close();
    await database.cleanup();
  }
  if (BASELINE) Object.assign(rows, await measureAgainstBaseline(kind));
  const { ceiling, floor, workFloor: workFloorRow, rate, latency } = measured;
  results[kind] = { ceiling, floor, workFloor: workFloorRow, fixedRate: rate, latency, rows, launchBytes: body.length };
}

const DATABASE_NAMES = { sqlite: 'SQLite', mysql: 'MariaDB' };
const percent = (share) => `${Math.round(100 * share)}%`;
/** How much slower than a reference a share of 1 − rate/reference is, in words. */
const slowerBy = (share) => (share >= 0 ? `${percent(share)} slower` : `${percent(-share)} faster`);

/** Closed-loop throughput; each database's rows beside its own interleaved ceiling and floor. */
function printTable(results) {
  const lines = [];
  lines.push('| database | scenario | connections | req/s | p50 ms | p99 ms | vs ceiling |');
  lines.push('|---|---|---|---|---|---|---|');
  for (const [kind, { ceiling, floor, workFloor, rows }] of Object.entries(results)) {
    lines.push(
      `| ${DATABASE_NAMES[kind]} | ${ceiling.name} (ceiling) | ${ceiling.connections} | ${ceiling.requestsPerSecond} | ${ceiling.p50Ms} | ${ceiling.p99Ms} | 100% |`,
    );
    for (const [row, label] of [
      [floor, 'framework floor'],
      [workFloor, 'work floor'],
    ]) {
      lines.push(
        `| ${DATABASE_NAMES[kind]} | ${row.name} (${label}) | ${row.connections} | ${row.requestsPerSecond} | ${row.p50Ms} | ${row.p99Ms} | ${percent(row.requestsPerSecond / ceiling.requestsPerSecond)} |`,
      );
    }
    for (const row of Object.values(rows)) {
      if (row.seconds !== undefined) {
        lines.push(`| ${DATABASE_NAMES[kind]} | ${row.name}: ${row.seconds.toFixed(1)} s | | | | | |`);
        continue;
      }
      const ratio = row.name.startsWith('launch') ? percent(row.requestsPerSecond / ceiling.requestsPerSecond) : '';
      const extra = row.lostUpdates !== undefined ? ` (${row.acknowledged} acknowledged, ${row.lostUpdates} lost)` : '';
      lines.push(
        `| ${DATABASE_NAMES[kind]} | ${row.name}${extra} | ${row.connections} | ${row.requestsPerSecond} | ${row.p50Ms} | ${row.p99Ms} | ${ratio} |`,
      );
    }
  }
  return lines.join('\n');
}

/** Latency at the fixed rate: per database, the ceiling, the floor and the launch measured one after another. */
function printLatencyTable(results) {
  const lines = [];
  lines.push('| database | server | offered req/s | served req/s | p50 ms | p99 ms | p99.9 ms | p99 vs ceiling |');
  lines.push('|---|---|---|---|---|---|---|---|');
  for (const [kind, { latency }] of Object.entries(results)) {
    for (const row of [latency.ceiling, latency.floor, latency.launch]) {
      const multiple = `${(row.p99Ms / latency.ceiling.p99Ms).toFixed(2)}×`;
      lines.push(
        `| ${DATABASE_NAMES[kind]} | ${row.name} | ${row.offeredRate} | ${row.requestsPerSecond} | ${row.p50Ms} | ${row.p99Ms} | ${row.p999Ms} | ${multiple} |`,
      );
    }
  }
  return lines.join('\n');
}

/**
 * The targets of docs/decisions/0021-benchmark-targets.md and issue 23 (each a ratio in this run), and the earlier issues'
 * that still hold.
 */
function targets(results) {
  const checks = [];
  const check = (name, ok, detail) => checks.push({ name, ok, detail });
  const throughputShare = { sqlite: 0.6, mysql: 0.5 };
  const cpuEfficiency = { sqlite: 0.85, mysql: 0.8 };
  for (const [kind, result] of Object.entries(results)) {
    const { ceiling, workFloor, rows, latency } = result;
    const name = DATABASE_NAMES[kind];
    const share = rows.launch.requestsPerSecond / ceiling.requestsPerSecond;
    check(`${name}: launch throughput >= ${percent(throughputShare[kind])} of the ceiling`, share >= throughputShare[kind], percent(share));
    if (ceiling.cpuMsPerRequest !== undefined && rows.launch.cpuMsPerRequest !== undefined) {
      const efficiency = (row) => ceiling.cpuMsPerRequest / (row.cpuMsPerRequest + (row.databaseCpuMsPerRequest ?? 0));
      const cpuOf = (row) =>
        `${row.cpuMsPerRequest}${row.databaseCpuMsPerRequest === undefined ? '' : ` + ${row.databaseCpuMsPerRequest} (mariadbd)`} ms`;
      check(
        `${name}: launch CPU efficiency (the ceiling's CPU a request / the launch's${kind === 'mysql' ? ', mariadbd counted' : ''}) >= ${cpuEfficiency[kind]} (issue 44)`,
        efficiency(rows.launch) >= cpuEfficiency[kind],
        `${efficiency(rows.launch).toFixed(2)} (${cpuOf(rows.launch)} against ${ceiling.cpuMsPerRequest} ms); ` +
          `the work floor's ${efficiency(workFloor).toFixed(2)} (${cpuOf(workFloor)})`,
      );
    }
    const multiple = latency.launch.p99Ms / latency.ceiling.p99Ms;
    check(
      `${name}: launch p99 <= 1.25x the ceiling's at ${latency.launch.offeredRate} req/s`,
      multiple <= 1.25,
      `${multiple.toFixed(2)}x (${latency.launch.p99Ms} ms against ${latency.ceiling.p99Ms} ms)`,
    );
    const cohortsSlower = 1 - rows.launchCohorts.requestsPerSecond / rows.launch.requestsPerSecond;
    check(
      `${name}: launch with cohorts (10 static, 5 rule) within 15% of the plain launch`,
      cohortsSlower <= 0.15,
      slowerBy(cohortsSlower),
    );
    for (const [algorithm, row] of [
      ['HS256', rows.launchHs256],
      ['RS256', rows.launchRs256],
    ]) {
      const slower = 1 - row.requestsPerSecond / rows.launchInterleaved.requestsPerSecond;
      const cpu =
        row.cpuMsPerRequest && rows.launchInterleaved.cpuMsPerRequest
          ? `; CPU per launch ${(row.cpuMsPerRequest / rows.launchInterleaved.cpuMsPerRequest).toFixed(2)}x of without`
          : '';
      check(`${name}: launch with ${algorithm} app-user tokens within 10% of without`, slower <= 0.1, `${slowerBy(slower)}${cpu}`);
    }
    if (kind === 'mysql') check(`${name}: merges >= 1,500/s`, rows.merge.requestsPerSecond >= 1500, `${rows.merge.requestsPerSecond}/s`);
    check(`${name}: no lost merges`, rows.merge.lostUpdates === 0, `${rows.merge.lostUpdates} lost of ${rows.merge.acknowledged}`);
    const policySlower = 1 - rows.launchPolicyOn.requestsPerSecond / rows.launchPolicyOff.requestsPerSecond;
    check(`${name}: launch with the exposure policy on within 5% of without (issue 43)`, policySlower <= 0.05, slowerBy(policySlower));
    const largeSlower = 1 - rows.launchLarge.requestsPerSecond / rows.launch.requestsPerSecond;
    check(`${name}: large tenant launch within 15% (issue 6)`, largeSlower <= 0.15, slowerBy(largeSlower));
    if (kind === 'mysql' && rows.ctaList)
      check(`${name}: CTA list p99 < 50 ms (issue 6)`, rows.ctaList.p99Ms < 50, `${rows.ctaList.p99Ms} ms`);
    check(
      `${name}: insights of one CTA over ${INSIGHT_DAYS} days, p99 < 100 ms (issue 31)`,
      rows.insightsCta.p99Ms < 100,
      `${rows.insightsCta.p99Ms} ms`,
    );
    check(
      `${name}: insights of 1,000 CTAs over ${INSIGHT_DAYS} days, p99 < 250 ms (issue 31)`,
      rows.insightsOverview.p99Ms < 250,
      `${rows.insightsOverview.p99Ms} ms`,
    );
    if (rows.launchBaseline) {
      const slower = 1 - rows.launchThisBuild.requestsPerSecond / rows.launchBaseline.requestsPerSecond;
      check(`${name}: launches within 5% of the baseline build (issue 44)`, slower <= 0.05, slowerBy(slower));
    }
    if (rows.mergeBaseline) {
      const slower = 1 - rows.mergeThisBuild.requestsPerSecond / rows.mergeBaseline.requestsPerSecond;
      const cpu =
        rows.mergeThisBuild.cpuMsPerRequest && rows.mergeBaseline.cpuMsPerRequest
          ? `; CPU per merge ${(rows.mergeThisBuild.cpuMsPerRequest / rows.mergeBaseline.cpuMsPerRequest).toFixed(2)}x of the baseline's`
          : '';
      check(`${name}: merges within 10% of the baseline build (issue 31)`, slower <= 0.1, `${slowerBy(slower)}${cpu}`);
    }
    check(
      `${name}: 1,000,000-id upload under a minute (issue 19)`,
      rows.cohortUpload.seconds < 60,
      `${rows.cohortUpload.seconds.toFixed(1)} s`,
    );
  }
  return checks;
}

async function main() {
  const started = Date.now();
  const results = {};
  const kinds = ['sqlite', ...((await mysqlReachable()) ? ['mysql'] : [])];
  if (!kinds.includes('mysql')) console.log(`MariaDB at ${MYSQL_URL} not reachable: SQLite only`);
  const references = {};
  try {
    for (const kind of kinds) {
      await benchDatabase(kind, results, references);
    }
  } finally {
    await references.stop?.();
  }
  const instances = await benchInstances();
  const fairWork = await benchFairWork();
  const table = printTable(results);
  const latencyTable = printLatencyTable(results);
  const checks = [...targets(results), ...fairWorkTargets(fairWork)];
  const loadAverage = os.loadavg().map((value) => value.toFixed(1));
  console.log(
    `\n${table}\n\nLatency at a fixed offered rate, a third of the ceiling's closed-loop throughput on each database:\n\n${latencyTable}\n`,
  );
  checks.forEach((entry) => console.log(`${entry.ok ? 'PASS' : 'FAIL'} ${entry.name}: ${entry.detail}`));
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  console.log(`\n${minutes} min; load average at the end ${loadAverage.join(' ')} on ${os.cpus().length} CPUs`);
  const output = {
    at: new Date().toISOString(),
    durationSeconds: DURATION,
    machine: { cpus: os.cpus().length, node: process.version, loadAverage },
    results,
    instances,
    fairWork,
    targets: checks,
    table,
    latencyTable,
  };
  fs.writeFileSync(path.join(__dirname, 'results.json'), `${JSON.stringify(output, null, 2)}\n`);
  console.log('\nwritten to bench/results.json');
}

// `bench/galera.js` reuses the service, seeding and measuring parts.
module.exports = { SMALL, MERGE_CONNECTIONS, LAUNCH_CONNECTIONS, startService, launchOptions, mergeOptions, launchBytes };

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
