'use strict';
/**
 * Where a launch's CPU goes (issue 44), beside the ceiling's: `npm run build`, then
 * `node bench/profile-launch.js [sqlite|mysql]`. Seeds the bench's small tenant (20 live CTAs, 100
 * users with stored state), runs launches (50 connections, rotating users) against the built service
 * and then against the plain Fastify server answering the same bytes, each with V8's sampling profiler
 * on (bench/cpu-profile-on-signal.js), and prints for each the CPU per request read from /proc (and,
 * on MariaDB, `mariadbd`'s) and the profile's busy time per request by phase: each sample goes to the
 * innermost frame that a phase below names. The profiler itself adds CPU: compare the shares and the
 * two servers, not the absolute figures (docs/benchmarks.md).
 *
 *   PROFILE_SECONDS   seconds profiled per server, default 10
 *   BENCH_MYSQL_URL   as for `npm run bench`
 */
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');
const { openDatabase, seedTenant } = require('./seed');
const { mariadbPid, recreateSchema, sleep, startService, takePort, MYSQL_URL } = require('./service');

const SECONDS = Number(process.env.PROFILE_SECONDS || 10);
const SMALL = { tenantId: 'bench-small', firstId: 1, extraCtas: 0, users: 100 };
const FIRST_USER = 1_000_000_000;
const LAUNCH_PATH = '/cta/active/state-machines/';
const SDK_HEADERS = { 'content-type': 'application/json', api_version: '1', app_version: '5.2.0', package_name: 'com.example.app' };
const PRELOAD = path.join(__dirname, 'cpu-profile-on-signal.js');

/** Phases, innermost first: a sample counts for the first phase that one of its frames (innermost outwards) matches. */
const PHASES = [
  ['garbage collection', (frame) => frame.startsWith('(garbage collector)')],
  ['render the answer', (frame) => /sdk-catalogue\.js/.test(frame) && /^(render|toBuffer|add) /.test(frame)],
  ['read the stored state', (frame) => /user-state\.js/.test(frame)],
  ['database read', (frame) => /user-state\.store\.js|read-batcher\.js|driver-reads\.js|mysql2|better-sqlite3|query-timeout/.test(frame)],
  ['cohorts, exposure cap, serving decision', (frame) => /cohort|catalogue-cache|exposure|serving/.test(frame)],
  ['launch service, other', (frame) => /sdk-state\.service\.js|sdk-state\.controller\.js|snapshot-request\.js/.test(frame)],
  ['response headers (security, request id, CORS)', (frame) => /security-headers\.js|@fastify\/cors|request-hooks\.js/.test(frame)],
  ['per-user turn, lane, body limits', (frame) => /keyed-gate|sdk-request-limits|large-body-lane|slot-gate/.test(frame)],
  ['metrics', (frame) => /prom-client|metrics\.service|app-logger/.test(frame)],
  ['guards and parameters', (frame) => /\/security\/|request-headers\.js|guards-consumer|route-params|pipes-consumer/.test(frame)],
  ['Nest router', (frame) => /@nestjs\//.test(frame)],
  ['body parse', (frame) => /json-body-parser|content-type-parser|secure-json-parse/.test(frame)],
  ['write head (header checks)', (frame) => /writeHead|_storeHeader|processHeader|checkInvalidHeaderChar|checkIsHttpToken/.test(frame)],
  ['socket write', (frame) => /^writev |writevGeneric|_writev|_writeGeneric/.test(frame)],
  ['Fastify (routing, reply, hooks)', (frame) => /fastify\/|find-my-way/.test(frame)],
  ['Node HTTP (parser, streams, events)', (frame) => /node:_http|node:internal\/streams|node:net|node:events|stream_base/.test(frame)],
];

/** Busy microseconds per phase in `profile` (a V8 CPU profile). */
function phasesOf(profile) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map();
  for (const node of profile.nodes) for (const child of node.children || []) parents.set(child, node.id);
  const frameOf = (node) => `${node.callFrame.functionName} ${node.callFrame.url}`;
  const phases = new Map();
  for (let index = 0; index < profile.samples.length; index++) {
    const node = nodes.get(profile.samples[index]);
    if (node.callFrame.functionName === '(idle)') continue;
    let phase = 'other';
    outer: for (let id = node.id; id !== undefined; id = parents.get(id)) {
      const frame = frameOf(nodes.get(id));
      for (const [name, matches] of PHASES) {
        if (matches(frame)) {
          phase = name;
          break outer;
        }
      }
    }
    phases.set(phase, (phases.get(phase) ?? 0) + (profile.timeDeltas[index + 1] ?? 0));
  }
  return phases;
}

/** User and system CPU ticks of process `pid` so far. */
function cpuTicks(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
}
const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK']).toString());

function launches(base, seconds) {
  let next = 0;
  return autocannon({
    url: base,
    connections: 50,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: LAUNCH_PATH,
        headers: SDK_HEADERS,
        body: '{}',
        setupRequest: (request) => {
          request.headers = {
            ...request.headers,
            'x-tenant-id': SMALL.tenantId,
            'auth-userid': String(FIRST_USER + (next++ % SMALL.users)),
          };
          return request;
        },
      },
    ],
  });
}

/** Warms `server` up, then profiles SECONDS of launches: CPU per request (its own and mariadbd's) and the profile's phases. */
async function profile(name, server, profileFile, database) {
  await launches(server.base, 2);
  fs.rmSync(profileFile, { force: true });
  const serverBefore = cpuTicks(server.pid);
  const databaseBefore = database ? cpuTicks(database) : 0;
  process.kill(server.pid, 'SIGTTIN');
  const result = await launches(server.base, SECONDS);
  process.kill(server.pid, 'SIGTTOU');
  const serverTicks = cpuTicks(server.pid) - serverBefore;
  const databaseTicks = database ? cpuTicks(database) - databaseBefore : 0;
  const requests = result.requests.total;
  const perRequest = (ticks) => ((ticks * TICK_MS * 1000) / requests).toFixed(1);
  const line = [`${name}: ${Math.round(result.requests.average)} req/s, ${perRequest(serverTicks)} µs CPU a request`];
  if (database) line.push(`mariadbd ${perRequest(databaseTicks)} µs`);
  for (let waited = 0; !fs.existsSync(profileFile) && waited < 5000; waited += 100) await sleep(100);
  const phases = phasesOf(JSON.parse(fs.readFileSync(profileFile, 'utf8')));
  fs.rmSync(profileFile);
  const busy = [...phases.values()].reduce((sum, us) => sum + us, 0);
  console.log(`${line.join(', ')}; profiled (profiler on): ${(busy / requests).toFixed(1)} µs busy a request`);
  for (const [phase, us] of [...phases].sort((a, b) => b[1] - a[1])) {
    console.log(`  ${(us / requests).toFixed(1).padStart(6)} µs ${((us / busy) * 100).toFixed(1).padStart(5)}%  ${phase}`);
  }
}

/** The plain Fastify server of `npm run bench` (bench/ceiling.js) answering `body`, profiled like the service. */
async function startCeiling(body, profileFile) {
  const port = await takePort();
  const child = spawn(process.execPath, ['-r', PRELOAD, path.join(__dirname, 'ceiling.js')], {
    env: { ...process.env, PORT: String(port), REFERENCE_BODY_B64: body.toString('base64'), PROFILE_FILE: profileFile },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await new Promise((resolve) => child.once('message', resolve));
  return { base: `http://127.0.0.1:${port}`, pid: child.pid, stop: async () => child.kill() };
}

async function main() {
  const kind = process.argv[2] || 'sqlite';
  const sqliteFile = path.join(os.tmpdir(), `launch-profile-${process.pid}.sqlite`);
  const url =
    kind === 'sqlite' ? `sqlite:${sqliteFile}` : (await recreateSchema(`${new URL(MYSQL_URL).pathname.slice(1)}_profile`)).toString();
  const migrator = await startService(url);
  const db = await openDatabase(url);
  await seedTenant(db, { ...SMALL, now: Date.now() });
  await db.close();
  await migrator.stop();
  const profileFile = (name) => path.join(os.tmpdir(), `launch-profile-${process.pid}-${name}.cpuprofile`);
  const service = await startService(url, { LOG_LEVEL: 'warn', NODE_OPTIONS: `-r ${PRELOAD}`, PROFILE_FILE: profileFile('service') });
  await profile(`launch (${kind})`, service, profileFile('service'), kind === 'sqlite' ? null : mariadbPid());
  const answer = await fetch(`${service.base}${LAUNCH_PATH}`, {
    method: 'POST',
    headers: { ...SDK_HEADERS, 'x-tenant-id': SMALL.tenantId, 'auth-userid': String(FIRST_USER) },
    body: '{}',
  });
  const body = Buffer.from(await answer.arrayBuffer());
  await service.stop();
  const ceiling = await startCeiling(body, profileFile('ceiling'));
  await profile('plain Fastify, same bytes', ceiling, profileFile('ceiling'));
  await ceiling.stop();
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(sqliteFile + suffix, { force: true });
}

main();
