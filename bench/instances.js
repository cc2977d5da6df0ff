'use strict';
/**
 * Several instances and bad actors (issue 15; docs/decisions/0006-user-state-merge.md,
 * docs/decisions/0007-catalogue-cache-and-periodic-jobs.md), measured on the built service; part of
 * `npm run bench`, or alone after `npm run build`: `node bench/instances.js`.
 *
 * - memory: launches for 40,000 random tenant ids (the header is not authenticated);
 *   heap after a full GC, and the tenants the catalogue cache holds;
 * - idle queries: two idle instances on one MariaDB database holding 2,000 tenants,
 *   statements counted by a proxy in front of each (the server's own counters are
 *   shared with everything else on this machine);
 * - merge latency: delta merges for a user whose state sits at the caps, beside a small user's.
 *
 *   BENCH_MYSQL_URL   default mysql://root@127.0.0.1:3306/cta_bench (schemas cta_bench_idle, cta_bench_caps recreated); "off" skips MariaDB
 */
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');
const { MYSQL_URL, sleep, startService: startBuiltService, mysqlReachable, recreateSchema, launchRequest } = require('./service');

const SDK_HEADERS = { 'content-type': 'application/json', api_version: '1', app_version: '5.2.0', package_name: 'com.example.app' };
const RANDOM_TENANTS = 40_000;
const IDLE_TENANTS = 2_000;
const IDLE_SECONDS = 30;
const { RULE_EXAMPLE: exampleRule } = require('../dist/src/api-docs/flow-examples');

/** The built service, logging warnings only. */
const startService = ({ DB_URL, ...env }) => startBuiltService(DB_URL, { LOG_LEVEL: 'warn', ...env });

async function metric(base, name) {
  const text = await (await fetch(`${base}/metrics`)).text();
  const line = text.split('\n').find((entry) => entry.startsWith(`${name} `) || entry.startsWith(`${name}{`));
  return line ? Number(line.split(' ').pop()) : NaN;
}

async function post(base, pathName, body, headers) {
  const response = await fetch(`${base}${pathName}`, {
    method: body === undefined ? 'PUT' : 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${pathName} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** 40,000 launches, each for a new random tenant id; heap and cache size along the way. */
async function measureMemory() {
  const file = path.join(os.tmpdir(), `cta-bench-memory-${process.pid}.sqlite`);
  const service = await startService({ DB_URL: `sqlite:${file}` });
  const sample = async (tenants) => {
    await service.gc();
    return {
      tenants,
      heapUsedMb: Math.round((await metric(service.base, 'nodejs_heap_size_used_bytes')) / 1e5) / 10,
      cachedTenants: await metric(service.base, 'cta_catalogue_cache_tenants'),
    };
  };
  try {
    await autocannon({
      url: service.base,
      connections: 20,
      amount: 2000,
      requests: [
        {
          method: 'POST',
          path: '/cta/active/state-machines/',
          headers: { ...SDK_HEADERS, 'x-tenant-id': 'warm', 'auth-userid': '1' },
          body: '{}',
        },
      ],
    });
    const samples = [await sample(0)];
    let sent = 0;
    for (const upTo of [10_000, 20_000, RANDOM_TENANTS]) {
      const result = await autocannon({
        url: service.base,
        connections: 20,
        amount: upTo - sent,
        requests: [
          launchRequest(() => ({ ...SDK_HEADERS, 'x-tenant-id': `rnd-${Math.random().toString(36).slice(2, 14)}`, 'auth-userid': '1' })),
        ],
      });
      if (result.non2xx || result.errors) throw new Error(`random tenants: ${result.non2xx} non-2xx, ${result.errors} errors`);
      sent = upTo;
      samples.push(await sample(upTo));
    }
    samples.forEach((entry) =>
      console.log(`  after ${entry.tenants} random tenant ids: heap ${entry.heapUsedMb} MB, ${entry.cachedTenants} tenants cached`),
    );
    return samples;
  } finally {
    await service.stop();
    fs.rmSync(file, { force: true });
    fs.rmSync(`${file}-wal`, { force: true });
    fs.rmSync(`${file}-shm`, { force: true });
  }
}

/**
 * A TCP proxy in front of MariaDB counting the commands clients send (a client
 * packet with sequence number 0 starts a command: COM_QUERY, COM_STMT_EXECUTE, …).
 */
async function countingProxy(target) {
  const counter = { commands: 0 };
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.hostname);
    let buffered = Buffer.alloc(0);
    let authenticated = false;
    client.on('data', (chunk) => {
      upstream.write(chunk);
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 4) {
        const length = buffered.readUIntLE(0, 3);
        if (buffered.length < 4 + length) break;
        // The handshake response is not a command; every later packet with sequence 0 is.
        if (buffered[3] === 0 && authenticated) counter.commands++;
        authenticated = true;
        buffered = buffered.subarray(4 + length);
      }
    });
    upstream.pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: server.address().port, counter, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Two idle instances on one database with IDLE_TENANTS tenants (a live CTA, a tag, a nudge preview each). */
async function measureIdleQueries() {
  const url = await recreateSchema('cta_bench_idle');
  // The first start applies the migrations; then the tenants are seeded straight into the tables.
  const migrator = await startService({ DB_URL: url.toString(), SCHEDULER_INTERVAL_MS: '0' });
  await migrator.stop();
  const mysql = require('mysql2/promise');
  const db = await mysql.createConnection({ uri: url.toString() });
  const now = Date.now();
  for (let start = 0; start < IDLE_TENANTS; start += 500) {
    const tenants = Array.from({ length: Math.min(500, IDLE_TENANTS - start) }, (_, index) => `idle-${start + index}`);
    await db.query(
      'INSERT INTO ctas (tenant_id, name, description, team, status, start_time, end_time, rule, is_test, expires_at, created_at, created_by) VALUES ?',
      [
        tenants.map((tenant) => [
          tenant,
          'idle',
          'idle',
          'growth',
          'live',
          now - 60_000,
          null,
          JSON.stringify(exampleRule),
          0,
          null,
          now,
          'bench',
        ]),
      ],
    );
    await db.query('INSERT INTO catalogue_revisions (tenant_id, revision, updated_at) VALUES ?', [
      tenants.map((tenant) => [tenant, 1, now]),
    ]);
    await db.query('INSERT INTO nudge_previews (tenant_id, preview_id, template, ttl, expires_at, updated_at) VALUES ?', [
      tenants.map((tenant) => [tenant, 'p', '<p>hi</p>', 86_400, now + 86_400_000, now]),
    ]);
  }
  await db.end();
  const target = new URL(MYSQL_URL);
  const proxies = [await countingProxy(target), await countingProxy(target)];
  const services = [];
  try {
    for (const proxy of proxies) {
      const proxied = new URL(url);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(proxy.port);
      services.push(await startService({ DB_URL: proxied.toString() }));
    }
    // One scheduler interval (10 s) to settle: first claims, first runs.
    await sleep(12_000);
    const before = proxies.map((proxy) => proxy.counter.commands);
    await sleep(IDLE_SECONDS * 1000);
    const perInstance = proxies.map((proxy, index) => Math.round(((proxy.counter.commands - before[index]) / IDLE_SECONDS) * 10) / 10);
    const total = Math.round(perInstance.reduce((sum, value) => sum + value, 0) * 10) / 10;
    console.log(`  two idle instances, ${IDLE_TENANTS} tenants: ${total} statements/s to the database (${perInstance.join(' + ')})`);
    return { tenants: IDLE_TENANTS, seconds: IDLE_SECONDS, statementsPerSecond: total, perInstance };
  } finally {
    await Promise.all(services.map((service) => service.stop()));
    await Promise.all(proxies.map((proxy) => proxy.close()));
  }
}

/** Delta merges (one new machine each, closed loop, one connection) for a user at the caps and for a small user. */
async function measureMergeAtCaps() {
  const url = await recreateSchema('cta_bench_caps');
  const service = await startService({ DB_URL: url.toString(), SCHEDULER_INTERVAL_MS: '0' });
  const tenant = { 'x-tenant-id': 'caps' };
  try {
    const ctaIds = [];
    for (let index = 0; index < 20; index++) {
      const created = await post(
        service.base,
        '/engine/ctas/',
        { name: `caps-${index}`, description: 'caps', tags: ['caps'], team: 'growth', startTime: null, endTime: null, rule: exampleRule },
        { ...tenant, user: 'bench' },
      );
      ctaIds.push(String(created.data));
      await post(service.base, `/engine/ctas/${created.data}/live`, undefined, tenant);
    }
    const now = Date.now();
    const padding = { note: 'x'.repeat(200) };
    // 100 machines (the per-CTA cap) on each of 20 CTAs with a context: well past the byte cap, so it is full.
    for (const ctaId of ctaIds) {
      const machines = Object.fromEntries(
        Array.from({ length: 100 }, (_, index) => [
          `seed-${index}`,
          { currentState: '1', lastTransitionAt: now - 1000 + index, createdAt: now - 1000, context: padding },
        ]),
      );
      await post(
        service.base,
        '/cta/state-machines/snapshot/delta/',
        { ctas: [{ ctaId, activeStateMachines: machines }] },
        { ...SDK_HEADERS, ...tenant, 'auth-userid': '1' },
      );
    }
    const rows = {};
    for (const [name, userId] of [
      ['user at the caps', '1'],
      ['small user', '2'],
    ]) {
      let sequence = 0;
      const result = await autocannon({
        url: service.base,
        connections: 1,
        duration: 8,
        requests: [
          {
            method: 'POST',
            path: '/cta/state-machines/snapshot/delta/',
            setupRequest: (request) => {
              sequence++;
              const machine = { currentState: '1', lastTransitionAt: Date.now(), createdAt: Date.now(), context: padding };
              return {
                ...request,
                headers: { ...SDK_HEADERS, ...tenant, 'auth-userid': userId },
                body: JSON.stringify({
                  ctas: [{ ctaId: ctaIds[sequence % ctaIds.length], activeStateMachines: { [`new-${sequence}`]: machine } }],
                }),
              };
            },
          },
        ],
      });
      if (result.non2xx || result.errors) throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      rows[name] = { requestsPerSecond: Math.round(result.requests.average), p50Ms: result.latency.p50, p99Ms: result.latency.p99 };
      console.log(`  merge, ${name}: ${rows[name].requestsPerSecond} req/s, p50 ${rows[name].p50Ms} ms, p99 ${rows[name].p99Ms} ms`);
    }
    rows.truncatedMachines = await metric(service.base, 'cta_state_truncations_total');
    return rows;
  } finally {
    await service.stop();
  }
}

async function benchInstances() {
  console.log('\nseveral instances and bad actors');
  const results = { memory: await measureMemory() };
  if (await mysqlReachable()) {
    results.idleQueries = await measureIdleQueries();
    results.mergeAtCaps = await measureMergeAtCaps();
  } else {
    console.log(`  MariaDB at ${MYSQL_URL} not reachable: idle queries and merge at the caps not measured`);
  }
  return results;
}

module.exports = { benchInstances, countingProxy };

if (require.main === module) {
  benchInstances()
    .then((results) => {
      fs.writeFileSync(
        path.join(__dirname, 'instances-results.json'),
        `${JSON.stringify({ at: new Date().toISOString(), ...results }, null, 2)}\n`,
      );
      console.log('\nwritten to bench/instances-results.json');
    })
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
