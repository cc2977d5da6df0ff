'use strict';
/**
 * `npm run bench` (DESIGN §19, issue 6): the built service on SQLite and on
 * MariaDB with seeded tenants, measured with autocannon in one run against a
 * plain Fastify server answering the same launch bytes (the ceiling), and a bare
 * Nest + Fastify route answering them too (the framework floor, for reference).
 *
 * Launches are also measured with app-user tokens (issue 21): HS256 (SDK_JWT_SECRET) and RS256 from a
 * local JWKS URL, each service beside the one without tokens on the same database, with one token per
 * user (a verified token is cached, so this is what a launch costs an app), and with a new token on
 * every request (what a signature check costs).
 *
 *   BENCH_MYSQL_URL   default mysql://root@127.0.0.1:3306/cta_bench (schema recreated); "off" skips MariaDB
 *   BENCH_DURATION_S  seconds per measurement, default 8
 */
const { fork, spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');
const jose = require('jose');
const { openDatabase, seedTenant, seedCohorts, storedMachineKeys, STATE_MACHINE_TTL } = require('./seed');
const { benchInstances } = require('./instances');

const ROOT = path.join(__dirname, '..');
const DURATION = Number(process.env.BENCH_DURATION_S || 8);
const MYSQL_URL = process.env.BENCH_MYSQL_URL || 'mysql://root@127.0.0.1:3306/cta_bench';
const LAUNCH_CONNECTIONS = 50;
const MERGE_CONNECTIONS = 50;
const LIST_CONNECTIONS = 10;
const SMALL = { tenantId: 'bench-small', firstId: 1, extraCtas: 0, users: 100 };
const LARGE = { tenantId: 'bench-large', firstId: 1001, extraCtas: 10_000, users: 100_000 };
/** Like SMALL, but its 20 CTAs name 10 static cohorts of 100,000 members and 5 rule cohorts (DESIGN §12). */
const COHORTS = {
  tenantId: 'bench-cohorts',
  firstId: 20_001,
  extraCtas: 0,
  users: 100,
  eligibility: (index) => ({ includes: [`static-${index % 10}`, `rule-${index % 5}`], excludes: [] }),
};
const COHORT_MEMBERS = 100_000;
const RULE_COHORTS = [
  { all: [{ attribute: 'appVersion', op: 'semverLt', value: '6.0' }] },
  { all: [{ attribute: 'packageName', op: 'eq', value: 'com.example.app' }, { bucket: { from: 0, to: 10 } }] },
  { any: [{ attribute: 'hotpatchVersion', op: 'in', values: ['v1', 'v2'] }, { bucket: { from: 0, to: 50, salt: 'half' } }] },
  { all: [{ cohort: 'static-0' }, { attribute: 'appVersion', op: 'semverGte', value: '5.0' }] },
  { all: [{ attribute: 'packageName', op: 'notIn', values: ['com.other.app'] }, { any: [{ attribute: 'appVersion', op: 'semverEq', value: '5.2' }] }] },
];
/** The member upload measured: this many ids as one CSV. */
const UPLOAD_IDS = 1_000_000;
const MERGE_USERS = 500;
const FIRST_USER = 1_000_000_000;
const LAUNCH_PATH = '/cta/active/state-machines/';
const SDK_HEADERS = { 'content-type': 'application/json', api_version: '1', app_version: '5.2.0', package_name: 'com.example.app' };
const TOKEN_SECRET = 'bench-app-user-token-secret-of-32-bytes';
/** Distinct tokens for the runs with a new token per request (each is used once). */
const FRESH_TOKENS = 4000;

let nextPort = 39_000 + Math.floor(Math.random() * 1000);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(url) {
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await sleep(100);
  }
  throw new Error(`${url} did not come up`);
}

async function startService(dbUrl, env = {}) {
  const port = nextPort++;
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/src/main.js')], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DB_URL: dbUrl, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/health`);
  return { base, pid: child.pid, stop: () => new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM'))) };
}

/** A reference server (`ceiling.js`, `nest-floor.js`) answering `body` to every launch. */
async function startReference(script, body) {
  const port = nextPort++;
  const child = fork(path.join(__dirname, script), { env: { ...process.env, PORT: String(port), REFERENCE_BODY_B64: body.toString('base64') } });
  await new Promise((resolve) => child.once('message', resolve));
  return { base: `http://127.0.0.1:${port}`, stop: () => new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM'))) };
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
  const server = http.createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })));
  const port = nextPort++;
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

/**
 * One autocannon run. With `server` (its pid), also the server's CPU time per request: on a
 * shared machine throughput follows the load of others, CPU per request much less.
 */
async function measure(name, options, server) {
  const cpuBefore = server ? cpuSecondsOf(server.pid) : null;
  // A fixed number of requests (`amount`) or, by default, DURATION seconds.
  const result = await autocannon(options.amount ? options : { duration: DURATION, ...options });
  const cpuAfter = server ? cpuSecondsOf(server.pid) : null;
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
  const cpu = row.cpuMsPerRequest === undefined ? '' : `, ${row.cpuMsPerRequest} ms CPU/request`;
  console.log(`  ${name}: ${row.requestsPerSecond} req/s, p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms${cpu}${row.non2xx || row.errors ? `, ${row.non2xx} non-2xx, ${row.errors} errors` : ''}`);
  return row;
}

const TOKEN_ROUNDS = 8;
const TOKEN_ROUND_SECONDS = 2;

/**
 * `variants` ([name, options, server]) measured in TOKEN_ROUNDS rounds, each variant once per
 * round for TOKEN_ROUND_SECONDS (after a warm-up each). Per variant: req/s and CPU per
 * request over all its rounds, p50 and p99 of its median round.
 */
async function measureInterleaved(variants) {
  // As long as a measurement each: the service without tokens has served two already, and a
  // process measured colder spends visibly more CPU per request in its first rounds.
  for (const [, options] of variants) {
    await measure('warm-up', { ...options, duration: DURATION });
  }
  const runs = variants.map(() => []);
  for (let round = 0; round < TOKEN_ROUNDS; round++) {
    for (const [index, [name, options, server]] of variants.entries()) {
      runs[index].push(await measure(`${name}, round ${round + 1}`, { ...options, duration: TOKEN_ROUND_SECONDS }, server));
    }
  }
  return variants.map(([name, options], index) => {
    const rounds = runs[index];
    const median = [...rounds].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(rounds.length / 2)];
    const requests = rounds.reduce((sum, row) => sum + row.requests, 0);
    const row = {
      name,
      connections: options.connections,
      requestsPerSecond: Math.round(requests / (rounds.length * TOKEN_ROUND_SECONDS)),
      p50Ms: median.p50Ms,
      p99Ms: median.p99Ms,
      non2xx: rounds.reduce((sum, round) => sum + round.non2xx, 0),
      errors: rounds.reduce((sum, round) => sum + round.errors, 0),
      rounds: rounds.map((round) => round.requestsPerSecond),
    };
    if (rounds.every((round) => round.cpuMsPerRequest !== undefined)) {
      row.cpuMsPerRequest = Number((rounds.reduce((sum, round) => sum + round.cpuMsPerRequest * round.requests, 0) / requests).toFixed(3));
    }
    console.log(`  ${name}: ${row.requestsPerSecond} req/s over ${rounds.length} rounds${row.cpuMsPerRequest === undefined ? '' : `, ${row.cpuMsPerRequest} ms CPU/request`}`);
    return row;
  });
}

const launchOptions = (base, users, tenantId, tokens) => ({
  url: base,
  connections: LAUNCH_CONNECTIONS,
  requests: [{ method: 'POST', path: LAUNCH_PATH, headers: SDK_HEADERS, body: '{}', setupRequest: rotatingUsers(users, tenantId, tokens) }],
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
              ctas: [{ ctaId: String(ctaId), activeStateMachines: { [key]: { currentState: '1', lastTransitionAt: now, createdAt: now, context: { storeId: key } } } }],
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

async function prepareDatabase(kind) {
  if (kind === 'sqlite') {
    const file = path.join(os.tmpdir(), `cta-bench-${process.pid}.sqlite`);
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
    return { url: `sqlite:${file}`, cleanup: async () => ['', '-wal', '-shm'].forEach((suffix) => fs.rmSync(file + suffix, { force: true })) };
  }
  const mysql = require('mysql2/promise');
  const url = new URL(MYSQL_URL);
  const schema = url.pathname.slice(1);
  const serverUrl = new URL(MYSQL_URL);
  serverUrl.pathname = '/';
  const admin = await mysql.createConnection({ uri: serverUrl.toString() });
  await admin.query(`DROP DATABASE IF EXISTS \`${schema}\``);
  await admin.query(`CREATE DATABASE \`${schema}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  return { url: MYSQL_URL, cleanup: async () => undefined };
}

async function mysqlReachable() {
  if (MYSQL_URL === 'off') return false;
  try {
    const serverUrl = new URL(MYSQL_URL);
    serverUrl.pathname = '/';
    const connection = await require('mysql2/promise').createConnection({ uri: serverUrl.toString(), connectTimeout: 3000 });
    await connection.end();
    return true;
  } catch {
    return false;
  }
}

async function launchBytes(base, tenantId, token) {
  const response = await fetch(base + LAUNCH_PATH, {
    method: 'POST',
    headers: { ...SDK_HEADERS, 'x-tenant-id': tenantId, 'auth-userid': String(FIRST_USER), ...(token ? { authorization: `Bearer ${token}` } : {}) },
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
  const created = await fetch(`${base}/engine/cohorts`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'upload', kind: 'static' }) });
  if (created.status !== 200) throw new Error(`cohort create answered ${created.status}`);
  const csv = `userId\n${Array.from({ length: UPLOAD_IDS }, (_, index) => String(FIRST_USER + 7 * index)).join('\n')}\n`;
  const started = Date.now();
  const response = await fetch(`${base}/engine/cohorts/upload/members`, { method: 'PUT', headers: { ...headers, 'content-type': 'text/csv' }, body: csv });
  const seconds = (Date.now() - started) / 1000;
  const answer = await response.json();
  if (response.status !== 200 || answer.data.memberCount !== UPLOAD_IDS) throw new Error(`upload answered ${response.status}: ${JSON.stringify(answer)}`);
  console.log(`  cohort upload: ${UPLOAD_IDS} ids (${(csv.length / 1e6).toFixed(1)} MB CSV) in ${seconds.toFixed(1)} s`);
  return { name: `cohort upload (PUT ${UPLOAD_IDS.toLocaleString('en')} ids as CSV)`, seconds, bytes: csv.length };
}

async function benchDatabase(kind, results) {
  console.log(`\n${kind}: seeding`);
  const database = await prepareDatabase(kind);
  let service = await startService(database.url);
  const db = await openDatabase(database.url);
  const now = Date.now();
  const started = Date.now();
  const smallIds = await seedTenant(db, { ...SMALL, now });
  await seedTenant(db, { ...LARGE, now });
  await seedTenant(db, { ...COHORTS, now });
  await seedCohorts(db, { tenantId: COHORTS.tenantId, firstId: 1, statics: 10, members: COHORT_MEMBERS, firstUser: FIRST_USER, rules: RULE_COHORTS, now });
  console.log(`  seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  // A fresh process, so nothing cached from before the seed and the statements are cold.
  await service.stop();
  service = await startService(database.url);
  const issuer = await startTokenIssuer(SMALL.users);
  // Beside it, on the same database: the same service verifying app-user tokens.
  const hs256Service = await startService(database.url, { SDK_JWT_SECRET: TOKEN_SECRET });
  const rs256Service = await startService(database.url, { SDK_JWT_JWKS_URL: issuer.jwksUrl });
  const body = await launchBytes(service.base, SMALL.tenantId);
  await launchBytes(service.base, LARGE.tenantId);
  for (const [tokenService, tokens] of [[hs256Service, issuer.hs256], [rs256Service, issuer.rs256]]) {
    if (!(await launchBytes(tokenService.base, SMALL.tenantId, tokens[0][0])).equals(body)) throw new Error('a launch with a token answered other bytes');
  }
  const rows = {};
  try {
    await measure('warm-up', { ...launchOptions(service.base, SMALL.users, SMALL.tenantId), duration: 2 });
    rows.launch = await measure('launch (20 CTAs, 100 users)', launchOptions(service.base, SMALL.users, SMALL.tenantId), service);
    rows.launchCohorts = await measure('launch (20 CTAs naming 10 static cohorts of 100,000 and 5 rule cohorts)', launchOptions(service.base, COHORTS.users, COHORTS.tenantId), service);
    rows.launchLarge = await measure('launch (10,020 CTAs, 100,000 users)', launchOptions(service.base, LARGE.users, LARGE.tenantId));
    // Tokens against none, in interleaved rounds on services side by side, so that the load of a
    // shared machine drifting during the run weighs on all three alike.
    const tokenRuns = await measureInterleaved([
      ['launch without tokens (interleaved with the two below)', launchOptions(service.base, SMALL.users, SMALL.tenantId), service],
      ['launch, HS256 app-user tokens (20 CTAs, 100 users)', launchOptions(hs256Service.base, SMALL.users, SMALL.tenantId, issuer.hs256), hs256Service],
      ['launch, RS256 app-user tokens from a JWKS (20 CTAs, 100 users)', launchOptions(rs256Service.base, SMALL.users, SMALL.tenantId, issuer.rs256), rs256Service],
    ]);
    [rows.launchInterleaved, rows.launchHs256, rows.launchRs256] = tokenRuns;
    rows.launchHs256Fresh = await measure(`launch, HS256, a new token every request (${FRESH_TOKENS} requests)`, freshTokenOptions(hs256Service.base, issuer.hs256Fresh), hs256Service);
    rows.launchRs256Fresh = await measure(`launch, RS256, a new token every request (${FRESH_TOKENS} requests)`, freshTokenOptions(rs256Service.base, issuer.rs256Fresh), rs256Service);
    if (rows.launchInterleaved.cpuMsPerRequest !== undefined) {
      const extra = (row) => (row.cpuMsPerRequest - rows.launchInterleaved.cpuMsPerRequest).toFixed(3);
      console.log(
        `  CPU a launch adds with tokens: cached HS256 ${extra(rows.launchHs256)} ms, cached RS256 ${extra(rows.launchRs256)} ms; ` +
          `new token HS256 ${extra(rows.launchHs256Fresh)} ms, new token RS256 ${extra(rows.launchRs256Fresh)} ms`,
      );
    }
    const acknowledged = new Set();
    rows.merge = await measure('delta merge', mergeOptions(service.base, smallIds[0], acknowledged));
    const stored = await storedMachineKeys(db, SMALL.tenantId, smallIds[0]);
    const lost = [...acknowledged].filter((key) => !stored.has(key)).length;
    rows.merge.acknowledged = acknowledged.size;
    rows.merge.lostUpdates = lost;
    console.log(`  merges acknowledged ${acknowledged.size}, stored ${stored.size}, lost ${lost}`);
    const list = await fetch(`${service.base}/engine/ctas/?pageSize=20&status=live&teams=growth,store`, { headers: { 'x-tenant-id': LARGE.tenantId } });
    if (list.status === 200) {
      rows.ctaList = await measure('CTA list (10,020 CTAs)', {
        url: `${service.base}/engine/ctas/?pageSize=20&status=live&teams=growth,store`,
        connections: LIST_CONNECTIONS,
        headers: { 'x-tenant-id': LARGE.tenantId },
      });
    } else {
      console.log(`  CTA list not measured: GET /engine/ctas/ answered ${list.status}`);
    }
    rows.cohortUpload = await measureUpload(service.base);
  } finally {
    await Promise.all([service.stop(), hs256Service.stop(), rs256Service.stop()]);
    await issuer.stop();
    await db.close();
    await database.cleanup();
  }
  results[kind] = { rows, launchBytes: body.length };
  return body;
}

function printTable(results, ceiling, floor) {
  const lines = [];
  lines.push('| database | scenario | connections | req/s | p50 ms | p99 ms | vs ceiling |');
  lines.push('|---|---|---|---|---|---|---|');
  lines.push(`| — | ${ceiling.name} (ceiling) | ${ceiling.connections} | ${ceiling.requestsPerSecond} | ${ceiling.p50Ms} | ${ceiling.p99Ms} | 100% |`);
  const floorRatio = Math.round((100 * floor.requestsPerSecond) / ceiling.requestsPerSecond);
  lines.push(`| — | ${floor.name} (framework floor) | ${floor.connections} | ${floor.requestsPerSecond} | ${floor.p50Ms} | ${floor.p99Ms} | ${floorRatio}% |`);
  for (const [kind, { rows }] of Object.entries(results)) {
    for (const row of Object.values(rows)) {
      if (row.seconds !== undefined) {
        lines.push(`| ${kind} | ${row.name}: ${row.seconds.toFixed(1)} s | | | | | |`);
        continue;
      }
      const ratio = row.name.startsWith('launch') ? `${Math.round((100 * row.requestsPerSecond) / ceiling.requestsPerSecond)}%` : '';
      const extra = row.lostUpdates !== undefined ? ` (${row.acknowledged} acknowledged, ${row.lostUpdates} lost)` : '';
      lines.push(`| ${kind} | ${row.name}${extra} | ${row.connections} | ${row.requestsPerSecond} | ${row.p50Ms} | ${row.p99Ms} | ${ratio} |`);
    }
  }
  return lines.join('\n');
}

function targets(results, ceiling) {
  const checks = [];
  const ratio = (row) => row.requestsPerSecond / ceiling.requestsPerSecond;
  const check = (name, ok, detail) => checks.push({ name, ok, detail });
  const { sqlite, mysql } = results;
  if (sqlite) {
    check('SQLite launch >= 50% of ceiling', ratio(sqlite.rows.launch) >= 0.5, `${Math.round(100 * ratio(sqlite.rows.launch))}%`);
    check('SQLite launch p99 <= 25 ms', sqlite.rows.launch.p99Ms <= 25, `${sqlite.rows.launch.p99Ms} ms`);
  }
  if (mysql) {
    check('MariaDB launch >= 35% of ceiling', ratio(mysql.rows.launch) >= 0.35, `${Math.round(100 * ratio(mysql.rows.launch))}%`);
    check('MariaDB launch p99 <= 25 ms', mysql.rows.launch.p99Ms <= 25, `${mysql.rows.launch.p99Ms} ms`);
    check('MariaDB merges >= 1,500/s', mysql.rows.merge.requestsPerSecond >= 1500, `${mysql.rows.merge.requestsPerSecond}/s`);
    if (mysql.rows.ctaList) check('MariaDB CTA list p99 < 50 ms', mysql.rows.ctaList.p99Ms < 50, `${mysql.rows.ctaList.p99Ms} ms`);
  }
  for (const [kind, result] of Object.entries(results)) {
    const launch = result.rows.launchInterleaved;
    for (const [name, row] of [['HS256', result.rows.launchHs256], ['RS256', result.rows.launchRs256]]) {
      const slower = 1 - row.requestsPerSecond / launch.requestsPerSecond;
      const cpu = row.cpuMsPerRequest && launch.cpuMsPerRequest ? `; CPU per launch ${(row.cpuMsPerRequest / launch.cpuMsPerRequest).toFixed(2)}x of without` : '';
      check(`${kind}: launch with ${name} app-user tokens within 10% of without`, slower <= 0.1, `${Math.round(100 * slower)}% slower${cpu}`);
    }
    check(`${kind}: no lost merges`, result.rows.merge.lostUpdates === 0, `${result.rows.merge.lostUpdates} lost`);
    const slower = 1 - result.rows.launchLarge.requestsPerSecond / result.rows.launch.requestsPerSecond;
    check(`${kind}: large tenant launch within 15%`, slower <= 0.15, `${Math.round(100 * slower)}% slower`);
    const cohortsSlower = 1 - result.rows.launchCohorts.requestsPerSecond / result.rows.launch.requestsPerSecond;
    check(`${kind}: launch with cohorts within 15% of the plain launch`, cohortsSlower <= 0.15, `${Math.round(100 * cohortsSlower)}% slower`);
    check(`${kind}: 1,000,000-id upload under a minute`, result.rows.cohortUpload.seconds < 60, `${result.rows.cohortUpload.seconds.toFixed(1)} s`);
  }
  return checks;
}

async function measureReference(script, name, body) {
  const server = await startReference(script, body);
  try {
    await measure('warm-up', { ...launchOptions(server.base, SMALL.users, SMALL.tenantId), duration: 2 });
    return await measure(name, launchOptions(server.base, SMALL.users, SMALL.tenantId));
  } finally {
    await server.stop();
  }
}

async function main() {
  const results = {};
  const kinds = ['sqlite', ...((await mysqlReachable()) ? ['mysql'] : [])];
  if (!kinds.includes('mysql')) console.log(`MariaDB at ${MYSQL_URL} not reachable: SQLite only`);
  let ceilingBody;
  for (const kind of kinds) {
    ceilingBody = await benchDatabase(kind, results);
  }
  console.log('\nreferences');
  const ceiling = await measureReference('ceiling.js', 'plain Fastify, same launch bytes', ceilingBody);
  const floor = await measureReference('nest-floor.js', 'bare Nest + Fastify route, same launch bytes', ceilingBody);
  const instances = await benchInstances();
  const table = printTable(results, ceiling, floor);
  const checks = targets(results, ceiling);
  console.log(`\n${table}\n`);
  checks.forEach((entry) => console.log(`${entry.ok ? 'met   ' : 'MISSED'} ${entry.name}: ${entry.detail}`));
  const output = { at: new Date().toISOString(), durationSeconds: DURATION, machine: { cpus: os.cpus().length, node: process.version }, ceiling, floor, results, instances, targets: checks, table };
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
