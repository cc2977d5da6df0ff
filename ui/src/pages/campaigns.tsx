import { useEffect, useState } from 'preact/hooks';
import { CTA_STATUSES } from '../../../src/cta-lifecycle/cta-statuses';
import { ApiError, get, useRead } from '../api';
import { approvalText } from '../parts/approval';
import { ColumnHeads } from '../parts/column-heads';
import { ExposurePolicyLine } from '../parts/exposure-policy';
import { Choice, Pager } from '../parts/fields';
import { Problem } from '../parts/problem';
import { Sparkline } from '../parts/sparkline';
import { Time, utcDay } from '../time';
import type { CtaInsights, CtaPage, Whoami } from '../types';

interface Filters {
  status: string;
  teams: string;
  tags: string;
  searchName: string;
}

const NO_FILTERS: Filters = { status: '', teams: '', tags: '', searchName: '' };
/** The list shows up to this many CTAs per page (the API's largest page). */
const PAGE_SIZE = 100;
/** Sparklines are read a few at a time: each is one insights read of its CTA. */
const SPARKLINE_READS_AT_ONCE = 4;

/** The last 7 UTC days of actions of each CTA listed, read a few CTAs at a time. */
function useSparklines(ids: number[]): Map<number, number[]> {
  const [lines, setLines] = useState(new Map<number, number[]>());
  useEffect(() => {
    let stopped = false;
    const queue = [...ids];
    const today = new Date();
    const range = { from: utcDay(today, -6), to: utcDay(today) };
    const next = async (): Promise<void> => {
      for (let id = queue.shift(); id !== undefined && !stopped; id = queue.shift()) {
        const insights = await get<CtaInsights>(`ctas/${id}/insights`, range).catch(() => null);
        if (insights !== null && !stopped) {
          const actions = insights.daily.map((day) => day.actions);
          setLines((known) => new Map(known).set(id as number, actions));
        }
      }
    };
    void Promise.all(Array.from({ length: SPARKLINE_READS_AT_ONCE }, next));
    return () => void (stopped = true);
  }, [ids.join(',')]);
  return lines;
}

export function CampaignsPage({ me }: { me: Whoami }) {
  const [filters, setFilters] = useState(NO_FILTERS);
  const [choices, setChoices] = useState<{ teams: string[]; tags: string[] }>({ teams: [], tags: [] });
  const [page, setPage] = useState<CtaPage | null>(null);
  const [pageNumber, setPageNumber] = useState(0);
  const [error, setError] = useState<ApiError | null>(null);

  useEffect(() => void get<{ teams: string[]; tags: string[] }>('filters').then(setChoices, setError), []);
  useRead(
    () => get<CtaPage>('ctas', { ...filters, pageSize: PAGE_SIZE, pageNumber }),
    [filters, pageNumber],
    (answer) => (setPage(answer), setError(null)),
    setError,
  );
  const sparklines = useSparklines(page?.ctas.map((cta) => cta.id) ?? []);

  const set = (name: keyof Filters) => (event: Event) => {
    setPageNumber(0);
    setFilters({ ...filters, [name]: (event.currentTarget as HTMLInputElement).value });
  };
  return (
    <>
      <h1>Campaigns</h1>
      <form class="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <Choice label="Status" value={filters.status} values={CTA_STATUSES} onChange={set('status')} />
        <Choice label="Team" value={filters.teams} values={choices.teams} onChange={set('teams')} />
        <Choice label="Tag" value={filters.tags} values={choices.tags} onChange={set('tags')} />
        <label>
          Name contains
          <input type="search" value={filters.searchName} onInput={set('searchName')} />
        </label>
      </form>
      <ExposurePolicyLine />
      <Problem error={error} />
      {page !== null && (
        <>
          <p class="muted">
            {page.totalEntries} CTA{page.totalEntries === 1 ? '' : 's'}
            {me.approvalsRequired ? ' · approvals required to go live' : ''}
          </p>
          <table class="list campaigns">
            <ColumnHeads names={['Name', 'Status', 'Tags', 'Team', 'Approval', 'Actions, last 7 days', 'Created']} />
            <tbody>
              {page.ctas.map((cta) => {
                const line = sparklines.get(cta.id);
                return (
                  <tr data-cta-id={cta.id}>
                    <th scope="row">
                      <a href={`#/campaigns/${cta.id}`}>{cta.name}</a>
                    </th>
                    <td>
                      <span class={`status status-${cta.ctaStatus}`}>{cta.ctaStatus}</span>
                    </td>
                    <td>{cta.tags.join(', ')}</td>
                    <td>{cta.team}</td>
                    <td>{approvalText(cta)}</td>
                    <td>
                      {line === undefined ? (
                        <span class="muted">…</span>
                      ) : (
                        <>
                          <Sparkline values={line} label={`${cta.name}, actions per day`} />{' '}
                          <span class="total">{line.reduce((sum, value) => sum + value, 0)}</span>
                        </>
                      )}
                    </td>
                    <td>
                      <Time ms={cta.createdAt} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <Pager
            label="Pages of campaigns"
            pageNumber={pageNumber}
            totalPages={page.totalPages}
            onPage={setPageNumber}
            names={['Previous', 'Next']}
          />
        </>
      )}
    </>
  );
}
