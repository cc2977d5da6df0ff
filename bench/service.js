'use strict';
/**
 * What every bench script needs to run the built service: free ports, starting it (and waiting
 * for /health), reaching and recreating MariaDB schemas. `run.js`, `instances.js`, `isolation.js` (the launch request) and (through
 * `run.js`) `galera.js` use these.
 */
const { execFileSync, spawn } = require('node:child_process');
const net = require('node:net');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const MYSQL_URL = process.env.BENCH_MYSQL_URL || 'mysql://root@127.0.0.1:3306/cta_bench';

/** A port no socket holds now, as the kernel picks it (a fixed range met other processes' ports here). */
async function takePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}
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

/**
 * The built service on `dbUrl` with `env`: this checkout's, or the one built in `root` (another
 * version, measured beside this one). SIGWINCH makes it run a full GC (bench/gc-on-signal.js;
 * `gc()`), so heap figures count live data only.
 */
async function startService(dbUrl, env = {}, root = ROOT) {
  const port = await takePort();
  const child = spawn(
    process.execPath,
    ['--expose-gc', '-r', path.join(__dirname, 'gc-on-signal.js'), path.join(root, 'dist/src/main.js')],
    {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DB_URL: dbUrl, NODE_ENV: 'production', ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const base = `http://127.0.0.1:${port}`;
  // The child's own exit (e.g. its port taken meanwhile) must not be hidden by another server answering there.
  const exited = new Promise((_resolve, reject) => child.once('exit', (code) => reject(new Error(`the service exited (${code})`))));
  exited.catch(() => undefined);
  await Promise.race([waitFor(`${base}/health`), exited]);
  return {
    base,
    pid: child.pid,
    gc: async () => (child.kill('SIGWINCH'), sleep(500)),
    stop: () => new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM'))),
  };
}

/** MYSQL_URL's server, without a database. */
function mysqlServerUrl() {
  const url = new URL(MYSQL_URL);
  url.pathname = '/';
  return url.toString();
}

async function mysqlReachable() {
  if (MYSQL_URL === 'off') return false;
  try {
    const connection = await require('mysql2/promise').createConnection({ uri: mysqlServerUrl(), connectTimeout: 3000 });
    await connection.end();
    return true;
  } catch {
    return false;
  }
}

/** Drops and creates the schema `name` on MYSQL_URL's server; answers its URL. */
async function recreateSchema(name) {
  const admin = await require('mysql2/promise').createConnection({ uri: mysqlServerUrl() });
  await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  const url = new URL(MYSQL_URL);
  url.pathname = `/${name}`;
  return url;
}

/** The pid of the local `mariadbd` (whose CPU a launch on MariaDB costs too), or null. */
const mariadbPid = () => execFileSync('sh', ['-c', 'pgrep -x mariadbd || true']).toString().trim().split('\n')[0] || null;

/** An autocannon request of the SDK launch, its headers given anew for each request by `headers()`. */
const launchRequest = (headers) => ({
  method: 'POST',
  path: '/cta/active/state-machines/',
  body: '{}',
  setupRequest: (request) => ({ ...request, headers: headers() }),
});

module.exports = { ROOT, MYSQL_URL, takePort, sleep, waitFor, startService, mysqlReachable, recreateSchema, launchRequest, mariadbPid };
