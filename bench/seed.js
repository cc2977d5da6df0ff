'use strict';
/**
 * Seeds the benchmark tenants straight into the database (the admin API would
 * take minutes for 10,000 CTAs and 100,000 users). CTA rows follow the schema of
 * the migrations; user state documents are built with the service's own
 * serializer, so the format cannot drift: the serializer of the build that reads them (`root`), since
 * a BENCH_BASELINE build may store another format.
 */
const path = require('node:path');
const { parseUserState } = require('../dist/src/sdk/user-state');
const { addToPending } = require('../dist/src/insights/insight-pending');
const { monthOf } = require('../dist/src/insights/insight-range');
const { CREATE_EXAMPLE: exampleCta } = require('../dist/src/api-docs/flow-examples');
const { CREATE_TAG_EXAMPLE: exampleTag } = require('../dist/src/behaviour-tags/behaviour-tag-api-examples');

const LIVE_CTAS = 20;
const TAGS = ['store-nudges', 'onboarding-nudges', 'retention-nudges'];
const TEAMS = ['growth', 'store', 'retention', 'payments'];
const NON_LIVE_STATUSES = ['draft', 'paused', 'concluded', 'terminated'];
const STATE_MACHINE_TTL = 7 * 24 * 3600 * 1000;
/** CTAs (of the live ones) each seeded user has state for. */
const CTAS_WITH_STATE = 5;

/** A realistic rule: the example's, with its priority, a window and an extra transition varied per CTA. */
function ruleFor(index, eligibility) {
  const rule = JSON.parse(JSON.stringify(exampleCta.rule));
  if (eligibility) rule.cohortEligibility = eligibility(index);
  rule.priority = (index * 7) % 11;
  rule.stateMachineTTL = STATE_MACHINE_TTL;
  rule.frequency.window.value = 1 + (index % 7);
  rule.stateTransition[`event_${index}`] = {
    0: [
      {
        transitionTo: '1',
        filters: {
          operator: 'OR',
          filter: [{ propertyName: 'screen', propertyType: 'string', comparisonType: '=', comparisonValue: `screen_${index}` }],
        },
      },
    ],
  };
  return rule;
}

/** A thin SQL adapter over better-sqlite3 or a mysql2/promise connection. */
async function openDatabase(url) {
  if (url.startsWith('sqlite:')) {
    const Database = require('better-sqlite3');
    const db = new Database(url.slice('sqlite:'.length));
    db.pragma('busy_timeout = 10000');
    return {
      run: async (sql, params = []) => db.prepare(sql).run(...params),
      all: async (sql, params = []) => db.prepare(sql).all(...params),
      transaction: async (work) => {
        db.exec('BEGIN');
        try {
          await work();
          db.exec('COMMIT');
        } catch (error) {
          db.exec('ROLLBACK');
          throw error;
        }
      },
      close: async () => db.close(),
    };
  }
  const mysql = require('mysql2/promise');
  const connection = await mysql.createConnection({ uri: url, supportBigNumbers: true, bigNumberStrings: false });
  return {
    run: async (sql, params = []) => (await connection.query(sql, params))[0],
    all: async (sql, params = []) => (await connection.query(sql, params))[0],
    transaction: async (work) => {
      await connection.beginTransaction();
      await work();
      await connection.commit();
    },
    close: () => connection.end(),
  };
}

async function insertRows(db, table, columns, rows, batchSize = 500) {
  for (let start = 0; start < rows.length; start += batchSize) {
    const batch = rows.slice(start, start + batchSize);
    const placeholders = batch.map(() => `(${columns.map(() => '?').join(', ')})`).join(', ');
    await db.run(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${placeholders}`, batch.flat());
  }
}

const CTA_COLUMNS = [
  'id',
  'tenant_id',
  'name',
  'description',
  'team',
  'status',
  'start_time',
  'end_time',
  'rule',
  'is_test',
  'expires_at',
  'created_at',
  'created_by',
  'last_updated_at',
  'last_updated_by',
];

function ctaRow(id, tenantId, index, status, now, eligibility) {
  return [
    id,
    tenantId,
    `${tenantId}-cta-${index}`,
    'benchmark CTA',
    TEAMS[index % TEAMS.length],
    status,
    status === 'live' ? now - 3600_000 : null,
    null,
    JSON.stringify(ruleFor(index, eligibility)),
    0,
    null,
    now,
    'bench@example.com',
    null,
    null,
  ];
}

/**
 * One tenant: 20 (or `liveCtas`) live CTAs linked to 3 behaviour tags, `extraCtas` non-live CTAs (of
 * `extraStatuses` in turn), and
 * `users` users with state for 5 CTAs, stored as the build in `root` stores it. CTA ids start at `firstId`. Answers the live ids. With an
 * `exposurePolicy` (docs/exposure-policy.md), the tenant has it, and each user's recent actions are
 * those of their state, as merges record them.
 */
async function seedTenant(
  db,
  { tenantId, firstId, extraCtas, users, now, eligibility, liveCtas = LIVE_CTAS, extraStatuses = NON_LIVE_STATUSES, exposurePolicy },
  root = path.join(__dirname, '..'),
) {
  const liveIds = Array.from({ length: liveCtas }, (_, index) => firstId + index);
  await db.transaction(async () => {
    const ctas = liveIds.map((id, index) => ctaRow(id, tenantId, index, 'live', now, eligibility));
    for (let index = 0; index < extraCtas; index++) {
      ctas.push(ctaRow(firstId + liveCtas + index, tenantId, liveCtas + index, extraStatuses[index % extraStatuses.length], now));
    }
    await insertRows(db, 'ctas', CTA_COLUMNS, ctas);
    // Every tenant written through the admin API has its catalogue revision row (the service tells a tenant by it).
    await insertRows(db, 'catalogue_revisions', ['tenant_id', 'revision', 'updated_at'], [[tenantId, 1, now]]);
    await insertRows(
      db,
      'cta_tags',
      ['tenant_id', 'cta_id', 'tag'],
      ctas.flatMap((row) => [
        [tenantId, row[0], 'onboarding'],
        [tenantId, row[0], 'store'],
      ]),
    );
    const linkedOf = (tagIndex) => liveIds.filter((_, index) => index % 5 === tagIndex);
    await insertRows(
      db,
      'behaviour_tags',
      [
        'tenant_id',
        'name',
        'description',
        'exposure_rule',
        'cta_relation',
        'created_at',
        'created_by',
        'last_updated_at',
        'last_updated_by',
      ],
      TAGS.map((name, tagIndex) => [
        tenantId,
        name,
        exampleTag.description,
        JSON.stringify(exampleTag.exposureRule),
        JSON.stringify({
          shownCta: { rule: 'LIST', ctaList: [String(linkedOf(tagIndex)[1])] },
          hideCta: { rule: 'LIST', ctaList: [String(linkedOf(tagIndex)[0])] },
        }),
        now,
        'bench@example.com',
        null,
        null,
      ]),
    );
    await insertRows(
      db,
      'behaviour_tag_ctas',
      ['tenant_id', 'cta_id', 'tag_name'],
      TAGS.flatMap((name, tagIndex) => linkedOf(tagIndex).map((id) => [tenantId, id, name])),
    );
  });
  const tagOf = (id) => TAGS[liveIds.indexOf(id) % 5];
  const document = userStateDocument(require(path.join(root, 'dist/src/sdk/user-state')), liveIds.slice(0, CTAS_WITH_STATE), tagOf, now);
  const recentActions = JSON.stringify(liveIds.slice(0, CTAS_WITH_STATE).flatMap((id) => [now - 3600_000, id]));
  await db.transaction(async () => {
    // recent_actions only with a policy: a BENCH_BASELINE build from before the exposure policy has no such column.
    const columns = ['tenant_id', 'user_id', 'state', 'version', 'updated_at', ...(exposurePolicy ? ['recent_actions'] : [])];
    const rows = Array.from({ length: users }, (_, index) => [
      tenantId,
      String(1_000_000_000 + index),
      document,
      1,
      now,
      ...(exposurePolicy ? [recentActions] : []),
    ]);
    await insertRows(db, 'sdk_user_states', columns, rows, 1000);
    if (exposurePolicy) {
      await insertRows(
        db,
        'exposure_policies',
        ['tenant_id', 'max_actions', 'exposure_window', 'updated_at'],
        [[tenantId, exposurePolicy.maxActions, JSON.stringify(exposurePolicy.window), now]],
      );
    }
  });
  return liveIds;
}

function userStateDocument({ emptyUserState, serializeUserState }, ctaIds, tagOf, now) {
  const state = emptyUserState();
  for (const id of ctaIds) {
    state.ctas.set(String(id), {
      activeStateMachines: new Map([
        [
          `store-${id}`,
          { currentState: '1', lastTransitionAt: now - 600_000, createdAt: now - 3600_000, context: { storeId: `store-${id}` } },
        ],
      ]),
      resetAt: [now - 7200_000],
      actionDoneAt: [now - 3600_000],
    });
    const tag = tagOf(id);
    if (tag) {
      const tagState = state.tags.get(tag) ?? { activeCtas: [], ctasResetAt: [] };
      tagState.activeCtas.push(String(id));
      tagState.ctasResetAt.push({ ctaId: String(id), resetAt: now - 7200_000 });
      state.tags.set(tag, tagState);
    }
  }
  return serializeUserState(state);
}

const COHORT_COLUMNS = [
  'id',
  'tenant_id',
  'name',
  'description',
  'kind',
  'rule',
  'generation',
  'next_generation',
  'member_count',
  'created_at',
  'created_by',
  'last_updated_at',
  'last_updated_by',
];

/**
 * Cohorts of docs/decisions/0008-cohorts.md for a tenant: `statics` static cohorts of `members` members each
 * (cohort k: users firstUser + 5k … firstUser + 5k + members - 1) and the rule cohorts given.
 */
async function seedCohorts(db, { tenantId, firstId, statics, members, firstUser, rules, now }) {
  const rows = [];
  for (let k = 0; k < statics; k++)
    rows.push([firstId + k, tenantId, `static-${k}`, null, 'static', null, 1, 2, members, now, 'bench@example.com', null, null]);
  rules.forEach((rule, k) =>
    rows.push([
      firstId + statics + k,
      tenantId,
      `rule-${k}`,
      null,
      'rule',
      JSON.stringify(rule),
      1,
      2,
      0,
      now,
      'bench@example.com',
      null,
      null,
    ]),
  );
  await insertRows(db, 'cohorts', COHORT_COLUMNS, rows);
  for (let k = 0; k < statics; k++) {
    for (let start = 0; start < members; start += 20_000) {
      await db.transaction(async () => {
        const batch = Array.from({ length: Math.min(20_000, members - start) }, (_, j) => [
          tenantId,
          firstId + k,
          1,
          String(firstUser + 5 * k + start + j),
        ]);
        await insertRows(db, 'cohort_members', ['tenant_id', 'cohort_id', 'generation', 'user_id'], batch, 1000);
      });
    }
  }
}

/**
 * Insights of a tenant's CTAs (docs/decisions/0018-campaign-insights.md): folded rows for each of `ctaIds`
 * on each of the `days` days up to `today` (a day number) and their months, three states each, and `pendingUsers` users
 * whose writes the fold has not taken yet, each with counts of five CTAs.
 */
async function seedInsights(db, { tenantId, ctaIds, days, today, pendingUsers, now }) {
  const dayRows = [];
  for (const ctaId of ctaIds) {
    for (let day = today - days + 1; day <= today; day++)
      dayRows.push([tenantId, ctaId, day, (ctaId + day) % 50, (ctaId + day) % 20, (ctaId + day) % 7]);
  }
  for (let start = 0; start < dayRows.length; start += 50_000) {
    await db.transaction(() =>
      insertRows(
        db,
        'insight_days',
        ['tenant_id', 'cta_id', 'day', 'actions', 'resets', 'new_users'],
        dayRows.slice(start, start + 50_000),
        500,
      ),
    );
  }
  const months = new Map();
  for (const [, ctaId, day, actions, resets] of dayRows) {
    const key = `${ctaId}/${monthOf(day)}`;
    const month = months.get(key) ?? [tenantId, ctaId, monthOf(day), 0, 0];
    month[3] += actions;
    month[4] += resets;
    months.set(key, month);
  }
  await insertRows(db, 'insight_months', ['tenant_id', 'cta_id', 'month', 'actions', 'resets'], [...months.values()]);
  await insertRows(
    db,
    'insight_ctas',
    ['tenant_id', 'cta_id', 'users', 'users_reached'],
    ctaIds.map((id) => [tenantId, id, id % 500, id % 900]),
  );
  await insertRows(
    db,
    'insight_states',
    ['tenant_id', 'cta_id', 'state', 'machines'],
    ctaIds.flatMap((id) => ['0', '1', '2'].map((state) => [tenantId, id, state, id % 100])),
  );
  const pending = Array.from({ length: pendingUsers }, (_, user) => {
    const changes = Array.from({ length: 5 }, (_, k) => ({
      ctaId: String(ctaIds[(user + k * 97) % ctaIds.length]),
      days: [[today, 1, 0, 1]],
      users: 1,
      states: [['1', 1]],
    }));
    return [tenantId, String(2_000_000_000 + user), '{"ctas":[],"tags":[]}', 1, now, addToPending(null, changes), now - (user % 10_000)];
  });
  await db.transaction(() =>
    insertRows(
      db,
      'sdk_user_states',
      ['tenant_id', 'user_id', 'state', 'version', 'updated_at', 'pending_insights', 'pending_since'],
      pending,
      1000,
    ),
  );
}

/** Stored state machines per user (for the lost-update check after the merge run). */
async function storedMachineKeys(db, tenantId, ctaId) {
  const rows = await db.all('SELECT user_id, state FROM sdk_user_states WHERE tenant_id = ?', [tenantId]);
  const keys = new Set();
  for (const row of rows) {
    const cta = parseUserState(row.state).ctas.get(String(ctaId));
    if (cta) for (const key of cta.activeStateMachines.keys()) keys.add(`${row.user_id}/${key}`);
  }
  return keys;
}

module.exports = { openDatabase, seedTenant, seedCohorts, seedInsights, storedMachineKeys, STATE_MACHINE_TTL, TAGS };
