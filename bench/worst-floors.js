'use strict';
/**
 * The database's own time for the admin routes' worst bodies (issue 27, docs/benchmarks.md): a bare
 * mysql2 transaction writing the bytes a route stored — its rows and audit entries, read back from the
 * schema a run of `worst-bodies.js` left — with prepared statements (the binary protocol, as the service
 * writes documents) and, for reference, with `query` (mysql2 escaping every value into the SQL text).
 * `node bench/worst-floors.js <schema>` on BENCH_MYSQL_URL's server; the rows it adds are deleted after.
 */
const mysql = require('mysql2/promise');
const { MYSQL_URL } = require('./service');

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const insert = (table, row) => {
  const columns = Object.keys(row);
  return [
    `INSERT INTO ${table} (${columns.map((c) => '`' + c + '`').join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    Object.values(row),
  ];
};
const insertMany = (table, rows, tail = '') => {
  const columns = Object.keys(rows[0]);
  return [
    `INSERT INTO ${table} (${columns.map((c) => '`' + c + '`').join(', ')}) VALUES ${rows.map(() => `(${columns.map(() => '?').join(', ')})`).join(', ')}${tail}`,
    rows.flatMap((row) => Object.values(row)),
  ];
};
const without = (row, ...keys) => Object.fromEntries(Object.entries(row).filter(([key]) => !keys.includes(key)));

(async () => {
  const url = new URL(MYSQL_URL);
  url.pathname = `/${process.argv[2]}`;
  const connection = await mysql.createConnection({ uri: url.toString(), supportBigNumbers: true });
  const one = async (sql, values = []) => (await connection.query(sql, values))[0][0];
  const all = async (sql, values = []) => (await connection.query(sql, values))[0];
  const audit = (entry) => without(entry, 'id');
  let sequence = 0;
  /** Per route, the statements of one transaction writing what it stored (new names where a key needs them). */
  const routes = {};
  {
    const cta = await one("SELECT * FROM ctas WHERE name LIKE 'worst-%' AND is_test = 0 ORDER BY id DESC LIMIT 1");
    const entry = await one("SELECT * FROM audit_entries WHERE entity_type = 'cta' AND action = 'create' AND entity_id = ?", [
      String(cta.id),
    ]);
    routes['POST /engine/ctas'] = () => [
      insert('ctas', { ...without(cta, 'id'), name: `floor-${++sequence}` }),
      insert('audit_entries', audit(entry)),
    ];
  }
  {
    const entry = await one("SELECT * FROM audit_entries WHERE entity_type = 'cta' AND action = 'update' ORDER BY id DESC LIMIT 1");
    const cta = await one('SELECT * FROM ctas WHERE id = ?', [Number(entry.entity_id)]);
    routes['PUT /engine/ctas/{id}'] = () => [
      [
        'UPDATE ctas SET team = ?, rule = ?, start_time = ?, end_time = ?, description = ?, last_updated_at = ?, last_updated_by = ?, content_revision = content_revision + 1, content_changed_by = ? WHERE tenant_id = ? AND id = ? AND status = ?',
        [
          cta.team,
          cta.rule,
          cta.start_time,
          cta.end_time,
          cta.description,
          cta.last_updated_at,
          cta.last_updated_by,
          cta.content_changed_by,
          cta.tenant_id,
          cta.id,
          cta.status,
        ],
      ],
      insert('audit_entries', audit(entry)),
    ];
  }
  {
    const entry = await one("SELECT * FROM audit_entries WHERE entity_type = 'testCta' AND action = 'create' ORDER BY id DESC LIMIT 1");
    const cta = await one('SELECT * FROM ctas WHERE id = ?', [Number(entry.entity_id)]);
    const users = await all('SELECT * FROM cta_test_users WHERE cta_id = ?', [cta.id]);
    routes['POST /engine/ctas/test/create'] = () => {
      const name = `floor-${++sequence}`;
      return [
        insert('ctas', { ...without(cta, 'id'), name }),
        insertMany(
          'cta_test_users',
          users.map((user) => ({ ...user, cta_id: 1_000_000 + sequence })),
        ),
        insert('audit_entries', audit(entry)),
      ];
    };
  }
  {
    const events = await all("SELECT * FROM event_definitions WHERE name LIKE 'e%'");
    // Each event's latest entry (e0's is of its replacement, the same size as its upsert's).
    const entries = await all(
      "SELECT * FROM audit_entries WHERE id IN (SELECT MAX(id) FROM audit_entries WHERE entity_type = 'event' AND entity_id LIKE 'e%' GROUP BY entity_id) ORDER BY id DESC",
    );
    routes['POST /engine/events'] = () => [
      insertMany(
        'event_definitions',
        events,
        ' ON DUPLICATE KEY UPDATE properties = VALUES(properties), source = VALUES(source), updated_at = VALUES(updated_at)',
      ),
      insertMany('audit_entries', entries.map(audit)),
    ];
    const event = events.find((row) => row.name === 'e0');
    routes['PUT /engine/events/{name}'] = () => [
      [
        'UPDATE event_definitions SET properties = ?, source = ?, updated_at = ? WHERE tenant_id = ? AND name = ?',
        [event.properties, event.source, event.updated_at, event.tenant_id, event.name],
      ],
      insert('audit_entries', audit(entries.find((entry) => entry.entity_id === event.name))),
    ];
  }
  {
    const entries = await all(
      "SELECT * FROM audit_entries WHERE entity_type = 'event' AND entity_id LIKE 'w%' ORDER BY id DESC LIMIT 1000",
    );
    const events = await all("SELECT * FROM event_definitions WHERE name LIKE 'w%'");
    if (events.length === 1000)
      routes['POST /engine/events (1,000 events)'] = () => [
        insertMany(
          'event_definitions',
          events,
          ' ON DUPLICATE KEY UPDATE properties = VALUES(properties), source = VALUES(source), updated_at = VALUES(updated_at)',
        ),
        insertMany('audit_entries', entries.map(audit)),
      ];
  }
  {
    const entry = await one(
      "SELECT * FROM audit_entries WHERE entity_type = 'cohort' AND action = 'create' AND entity_id LIKE 'worst-cohort-%' ORDER BY id DESC LIMIT 1",
    );
    const cohort = await one('SELECT * FROM cohorts WHERE tenant_id = ? AND name = ?', [entry.tenant_id, entry.entity_id]);
    routes['POST /engine/cohorts'] = () => [
      insert('cohorts', { ...without(cohort, 'id'), name: `floor-${++sequence}` }),
      insert('audit_entries', audit(entry)),
    ];
    const update = await one("SELECT * FROM audit_entries WHERE entity_type = 'cohort' AND action = 'update' ORDER BY id DESC LIMIT 1");
    const updated = await one('SELECT * FROM cohorts WHERE tenant_id = ? AND name = ?', [update.tenant_id, update.entity_id]);
    routes['PUT /engine/cohorts/{name}'] = () => [
      [
        'UPDATE cohorts SET description = ?, rule = ?, last_updated_at = ?, last_updated_by = ? WHERE tenant_id = ? AND id = ?',
        [updated.description, updated.rule, updated.last_updated_at, updated.last_updated_by, updated.tenant_id, updated.id],
      ],
      insert('audit_entries', audit(update)),
    ];
  }
  {
    const preview = await one('SELECT * FROM nudge_previews ORDER BY updated_at DESC LIMIT 1');
    routes['POST /engine/nudge/preview'] = () => [
      insertMany(
        'nudge_previews',
        [preview],
        ' ON DUPLICATE KEY UPDATE template = VALUES(template), ttl = VALUES(ttl), expires_at = VALUES(expires_at), updated_at = VALUES(updated_at)',
      ),
    ];
  }
  const lastEntry = (await one('SELECT MAX(id) AS id FROM audit_entries')).id;
  const modes = ['execute', 'query'];
  for (const [route, statements] of Object.entries(routes)) {
    const line = [];
    for (const mode of modes) {
      const times = [];
      for (let i = 0; i < 11; i++) {
        const batch = statements();
        const started = performance.now();
        await connection.query('START TRANSACTION');
        for (const [sql, values] of batch) {
          if (mode === 'execute') {
            await connection.execute(sql, values);
            connection.unprepare(sql);
          } else await connection.query(sql, values);
        }
        await connection.query('COMMIT');
        times.push(performance.now() - started);
      }
      line.push(`${mode} ${median(times.slice(2)).toFixed(1)} ms`);
    }
    const bytes = statements().reduce(
      (sum, [, values]) => sum + values.reduce((s, v) => s + (typeof v === 'string' ? Buffer.byteLength(v) : 0), 0),
      0,
    );
    console.log(`${route}: ${Math.round(bytes / 1024)} KiB stored: ${line.join(', ')}`);
  }
  await connection.query('DELETE FROM audit_entries WHERE id > ?', [lastEntry]);
  await connection.query("DELETE FROM ctas WHERE name LIKE 'floor-%'");
  await connection.query("DELETE FROM cohorts WHERE name LIKE 'floor-%'");
  await connection.query('DELETE FROM cta_test_users WHERE cta_id >= 1000000');
  await connection.end();
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
