import { useState } from 'preact/hooks';
import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES } from '../../../src/audit/audit.types';
import { ApiError, get, useRead } from '../api';
import { FieldDiff, person } from '../parts/diff';
import { Choice, Pager } from '../parts/fields';
import { Problem } from '../parts/problem';
import { localDayBound, Time } from '../time';
import type { AuditPage as Page } from '../types';

interface Filters {
  user: string;
  actor: string;
  action: string;
  entityType: string;
  entityId: string;
  /** Local calendar days (date inputs). */
  fromDay: string;
  toDay: string;
}

const NO_FILTERS: Filters = { user: '', actor: '', action: '', entityType: '', entityId: '', fromDay: '', toDay: '' };
const PAGE_SIZE = 50;

export function AuditPage() {
  const [filters, setFilters] = useState(NO_FILTERS);
  const [pageNumber, setPageNumber] = useState(0);
  const [page, setPage] = useState<Page | null>(null);
  const [error, setError] = useState<ApiError | null>(null);

  useRead(
    () => {
      const { fromDay, toDay, ...exact } = filters;
      return get<Page>('audit', {
        ...exact,
        from: localDayBound(fromDay, false),
        to: localDayBound(toDay, true),
        pageSize: PAGE_SIZE,
        pageNumber,
      });
    },
    [filters, pageNumber],
    (answer) => (setPage(answer), setError(null)),
    setError,
  );

  const set = (name: keyof Filters) => (event: Event) => {
    setPageNumber(0);
    setFilters({ ...filters, [name]: (event.currentTarget as HTMLInputElement).value });
  };
  const text = (name: keyof Filters, label: string) => (
    <label>
      {label}
      <input type="search" value={filters[name]} onInput={set(name)} />
    </label>
  );
  return (
    <>
      <h1>Audit</h1>
      <form class="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        {text('user', 'Person (user)')}
        {text('actor', 'Key')}
        <Choice label="Action" value={filters.action} values={AUDIT_ACTIONS} onChange={set('action')} />
        <Choice label="Entity" value={filters.entityType} values={AUDIT_ENTITY_TYPES} onChange={set('entityType')} />
        {text('entityId', 'Entity id or name')}
        <label>
          From (local day)
          <input type="date" value={filters.fromDay} onChange={set('fromDay')} />
        </label>
        <label>
          To (local day)
          <input type="date" value={filters.toDay} onChange={set('toDay')} />
        </label>
      </form>
      <Problem error={error} />
      {page !== null && (
        <>
          <p class="muted">
            {page.totalEntries} entr{page.totalEntries === 1 ? 'y' : 'ies'}
          </p>
          <ol class="timeline">
            {page.entries.map((entry) => (
              <li data-audit-id={entry.id}>
                <p>
                  <strong>{entry.action}</strong> of {entry.entityType}{' '}
                  {entry.entityType === 'cta' ? (
                    <a href={`#/campaigns/${entry.entityId}`}>{entry.entityId}</a>
                  ) : (
                    <code>{entry.entityId}</code>
                  )}{' '}
                  by {person(entry)} · <Time ms={entry.at} />
                </p>
                <FieldDiff entry={entry} />
              </li>
            ))}
          </ol>
          <Pager
            label="Pages of the audit"
            pageNumber={pageNumber}
            totalPages={page.totalPages}
            onPage={setPageNumber}
            names={['Newer', 'Older']}
          />
        </>
      )}
    </>
  );
}
