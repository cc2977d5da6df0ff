'use strict';
/**
 * The work floor: a plain Fastify server that does only what a launch cannot skip (run as a child
 * process). For each launch it reads the user's stored row from the service's database and copies
 * that user's answer, as the service answered it, into a buffer of its own, as the service's render
 * does. It reads as cheaply as each database allows: on SQLite a prepared primary-key statement per
 * launch (better-sqlite3 is synchronous), on MariaDB one statement per turn of the event loop for
 * the launches waiting, batched by the service's own `ReadBatcher` (a statement per launch costs
 * mysql2 several times more). No hooks, headers, guards or decisions: what the launch costs beyond this server is the way
 * the service is built, not the work (docs/benchmarks.md).
 *
 *   PORT                   the port to listen on
 *   WORK_FLOOR_DB_URL      sqlite:<file> or mysql://…, the service's database
 *   WORK_FLOOR_ANSWERS     a JSON file: { tenantId, answers: { userId: base64 answer } }
 */
const fs = require('node:fs');
const fastify = require('fastify')();
const { ReadBatcher } = require('../dist/src/common/read-batcher');

const COLUMNS = 'user_id, state, version, pending_insights, pending_since, insight_marks, recent_actions';
const selectUsers = (count) =>
  `SELECT ${COLUMNS} FROM sdk_user_states WHERE tenant_id = ? AND user_id IN (${new Array(count).fill('?').join(', ')})`;
const { tenantId, answers } = JSON.parse(fs.readFileSync(process.env.WORK_FLOOR_ANSWERS, 'utf8'));
const answerOf = new Map(Object.entries(answers).map(([userId, answer]) => [userId, Buffer.from(answer, 'base64')]));
const databaseUrl = process.env.WORK_FLOOR_DB_URL;

/** `readUser(userId)`: the user's row as an array of its columns (the service reads rows as arrays too). */
function userReader() {
  if (databaseUrl.startsWith('sqlite:')) {
    const Database = require('better-sqlite3');
    const statement = new Database(databaseUrl.slice('sqlite:'.length), { readonly: true }).prepare(selectUsers(1)).raw(true);
    return async (userId) => statement.all(tenantId, userId)[0];
  }
  const pool = require('mysql2/promise').createPool({ uri: databaseUrl, connectionLimit: 10 });
  // The service's own batcher: the reads of one turn go out together, at most MAX_READ_BATCH a statement.
  const batcher = new ReadBatcher(async (tenant, reads) => {
    const userIds = [...new Set(reads.map((read) => read.userId))];
    const [rows] = await pool.execute({ sql: selectUsers(userIds.length), values: [tenant, ...userIds], rowsAsArray: true });
    const rowOf = new Map(rows.map((row) => [String(row[0]), row]));
    reads.forEach((read) => read.resolve(rowOf.get(read.userId)));
  });
  return (userId) => new Promise((resolve, reject) => batcher.add(tenantId, { userId, resolve, reject }));
}
const readUser = userReader();

fastify.removeAllContentTypeParsers();
fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => done(null, text));
fastify.post('/cta/active/state-machines/', async (request, reply) => {
  const userId = request.headers['auth-userid'];
  const answer = answerOf.get(userId);
  const row = await readUser(userId);
  if (answer === undefined || row === undefined) throw new Error(`no answer or no stored state for user ${userId}`);
  const copy = Buffer.allocUnsafe(answer.length);
  answer.copy(copy);
  reply.header('content-type', 'application/json; charset=utf-8');
  return copy;
});
fastify.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }).then(() => process.send?.('ready'));
