import { useState } from 'preact/hooks';
import { ApiError, get, post, session, useRead } from '../api';
import { ColumnHeads } from '../parts/column-heads';
import { DailyChart } from '../parts/daily-chart';
import { Experiment } from '../parts/experiment';
import { FieldDiff, person } from '../parts/diff';
import { Problem } from '../parts/problem';
import { Time, daysBetween, utcDay } from '../time';
import type { AuditEntry, AuditPage, CtaInsights, CtaRecord, InsightsDay, Whoami } from '../types';

/** The chart's default range: the last 30 UTC days. */
const DEFAULT_DAYS = 30;
/** The history is read one page of this many entries at a time (the API's largest page). */
const HISTORY_PAGE_SIZE = 100;
const COUNTS = [
  ['actions', 'Actions', '#1f6feb'],
  ['resets', 'Resets (journeys completed)', '#2da44e'],
  ['newUsers', 'New users', '#bf8700'],
] as const;

const sum = (daily: InsightsDay[], count: 'actions' | 'resets' | 'newUsers'): number => daily.reduce((total, day) => total + day[count], 0);
/** Statuses from which a CTA can still go live or be scheduled: the ones an approval is for. */
const APPROVABLE = new Set(['draft', 'paused', 'live', 'scheduled']);
/** Entries whose `after` is a version of the CTA's content that restore can put back. */
const RESTORABLE = new Set(['create', 'update', 'restore']);

function Insights({ cta }: { cta: CtaRecord }) {
  const today = new Date();
  const [range, setRange] = useState({ from: utcDay(today, 1 - DEFAULT_DAYS), to: utcDay(today) });
  const [current, setCurrent] = useState<CtaInsights | null>(null);
  const [previous, setPrevious] = useState<CtaInsights | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const length = daysBetween(range.from, range.to);
  const before = { from: utcDay(new Date(`${range.from}T00:00:00Z`), -length), to: utcDay(new Date(`${range.from}T00:00:00Z`), -1) };

  useRead(
    () => Promise.all([get<CtaInsights>(`ctas/${cta.id}/insights`, range), get<CtaInsights>(`ctas/${cta.id}/insights`, before)]),
    [cta.id, range.from, range.to],
    ([now, then]) => (setCurrent(now), setPrevious(then), setError(null)),
    setError,
  );

  return (
    <section aria-labelledby="insights-title">
      <h2 id="insights-title">How it does</h2>
      <form class="filters" onSubmit={(event) => event.preventDefault()}>
        {(['from', 'to'] as const).map((end) => (
          <label>
            {end === 'from' ? 'From' : 'To'} (UTC day)
            <input
              type="date"
              value={range[end]}
              required
              onChange={(e) => e.currentTarget.value && setRange({ ...range, [end]: e.currentTarget.value })}
            />
          </label>
        ))}
        <span class="muted">
          compared with {before.from} – {before.to}
        </span>
      </form>
      <Problem error={error} />
      {current !== null && previous !== null && (
        <>
          <DailyChart
            title={`Per day, ${range.from} – ${range.to} (dashed: the ${length} days before)`}
            days={current.daily.map((day) => day.day)}
            series={COUNTS.flatMap(([count, label, color]) => [
              { label, values: current.daily.map((day) => day[count]), color },
              { label: `${label}, before`, values: previous.daily.map((day) => day[count]), color, dashed: true },
            ])}
          />
          <table class="totals">
            <caption>Totals</caption>
            <thead>
              <tr>
                <th scope="col" />
                <th scope="col">
                  {range.from} – {range.to}
                </th>
                <th scope="col">
                  {before.from} – {before.to}
                </th>
              </tr>
            </thead>
            <tbody>
              {COUNTS.map(([count, label]) => (
                <tr data-count={count}>
                  <th scope="row">{label}</th>
                  <td class="current">{sum(current.daily, count)}</td>
                  <td class="previous">{sum(previous.daily, count)}</td>
                </tr>
              ))}
              <tr data-count="usersReached">
                <th scope="row">Users reached, ever</th>
                <td class="current" colSpan={2}>
                  {current.totals.usersReached}
                </td>
              </tr>
            </tbody>
          </table>
          <details>
            <summary>The chart's numbers, day by day</summary>
            <table class="list daily">
              <ColumnHeads names={['Day (UTC)', ...COUNTS.map(([, label]) => label)]} />
              <tbody>
                {current.daily.map((day) => (
                  <tr data-day={day.day}>
                    <th scope="row">{day.day}</th>
                    <td>{day.actions}</td>
                    <td>{day.resets}</td>
                    <td>{day.newUsers}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
          <h2>Machines by state now</h2>
          <p>
            {current.now.users} user{current.now.users === 1 ? '' : 's'} with {current.now.machines} machine
            {current.now.machines === 1 ? '' : 's'}
          </p>
          <table class="list machines">
            <ColumnHeads names={['State', 'Machines']} />
            <tbody>
              {Object.entries(current.now.byState).map(([state, machines]) => (
                <tr data-state={state}>
                  <th scope="row">{state}</th>
                  <td>{machines}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

function Approval({ cta, history, me, onChange }: { cta: CtaRecord; history: AuditEntry[]; me: Whoami; onChange: () => void }) {
  const [error, setError] = useState<ApiError | null>(null);
  if (cta.approval === undefined) return null;
  // The approval names the key; the audit entry that recorded it (the newest approve: any later change voids an approval) names the person too.
  const recorded = history.find((entry) => entry.action === 'approve');
  return (
    <section aria-labelledby="approval-title">
      <h2 id="approval-title">Approval</h2>
      {cta.approval === null ? (
        <p class="approval">
          Its current content is not approved: it cannot go live or be scheduled until a key other than the last editor's approves it.
        </p>
      ) : (
        <p class="approval">
          Approved by <strong>{recorded === undefined ? cta.approval.by : person(recorded)}</strong> at <Time ms={cta.approval.at} />
        </p>
      )}
      {cta.approval === null && me.may.approve && APPROVABLE.has(cta.ctaStatus) && (
        <button type="button" onClick={() => post(`ctas/${cta.id}/approve`).then(onChange, setError)}>
          Approve
        </button>
      )}
      <Problem error={error} />
    </section>
  );
}

function History({ cta, entries, me, onChange }: { cta: CtaRecord; entries: AuditEntry[]; me: Whoami; onChange: () => void }) {
  const [error, setError] = useState<ApiError | null>(null);
  const restore = (entry: AuditEntry) => {
    const question = `Restore CTA ${cta.id} to the version of entry ${entry.id}?`;
    // A restore is recorded with its operator: with no name from the sign-in, no key's name and no ADMIN_DEFAULT_USER, ask.
    if (session.user() === null && me.user === null) {
      const name = prompt(`${question}\nYour name or e-mail, recorded in the audit history:`)?.trim();
      if (!name) return;
      session.name(name);
    } else if (!confirm(question)) return;
    post(`ctas/${cta.id}/restore/${entry.id}`).then(() => (setError(null), onChange()), setError);
  };
  return (
    <section aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      <Problem error={error} />
      <ol class="timeline">
        {entries.map((entry) => (
          <li data-audit-id={entry.id}>
            <p>
              <strong>{entry.action}</strong> by {person(entry)} · <Time ms={entry.at} />
              {me.may.restore && RESTORABLE.has(entry.action) && entry.after !== null && (
                <button type="button" class="small" onClick={() => restore(entry)}>
                  Restore this version
                </button>
              )}
            </p>
            <FieldDiff entry={entry} />
          </li>
        ))}
      </ol>
    </section>
  );
}

export function CampaignPage({ id, me }: { id: string; me: Whoami }) {
  const [cta, setCta] = useState<CtaRecord | null>(null);
  const [history, setHistory] = useState<AuditEntry[]>([]);
  const [error, setError] = useState<ApiError | null>(null);
  const [version, setVersion] = useState(0);
  useRead(
    () => Promise.all([get<CtaRecord>(`ctas/${id}`), get<AuditPage>(`ctas/${id}/history`, { pageSize: HISTORY_PAGE_SIZE })]),
    [id, version],
    ([record, page]) => (setCta(record), setHistory(page.entries), setError(null)),
    setError,
  );
  const reload = () => setVersion(version + 1);

  if (cta === null) return <Problem error={error} />;
  return (
    <>
      <p>
        <a href="#/campaigns">← Campaigns</a>
      </p>
      <h1>
        {cta.name} <span class={`status status-${cta.ctaStatus}`}>{cta.ctaStatus}</span>
      </h1>
      <p class="muted">
        CTA {cta.id} · team {cta.team} · tags {cta.tags.join(', ') || '—'} · created by {cta.createdBy} <Time ms={cta.createdAt} />
        {cta.capExempt && ' · exempt from the exposure policy (served over its cap)'}
        {cta.description !== null && ` · ${cta.description}`}
      </p>
      <Problem error={error} />
      <Insights cta={cta} />
      <Experiment cta={cta} />
      <Approval cta={cta} history={history} me={me} onChange={reload} />
      <History cta={cta} entries={history} me={me} onChange={reload} />
    </>
  );
}
