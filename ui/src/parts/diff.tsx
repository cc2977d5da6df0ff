import type { AuditEntry } from '../types';

/** The value at an RFC 6901 pointer (`/rule/frequency/lifeSpan/limit`), or undefined. */
function at(record: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>(
      (value, part) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined),
      record,
    );
}

const shown = (value: unknown): string => (value === undefined ? '—' : JSON.stringify(value));

/** The fields an audit entry changed, each with its value before and after (from the entry's JSON Patch). */
export function FieldDiff({ entry }: { entry: AuditEntry }) {
  const fields = entry.changes.filter((change) => change.path !== '');
  if (fields.length === 0) {
    return <p class="muted">{entry.before === null ? 'created' : entry.after === null ? 'deleted' : 'no field changed'}</p>;
  }
  return (
    <table class="diff">
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Before</th>
          <th scope="col">After</th>
        </tr>
      </thead>
      <tbody>
        {fields.map((change) => {
          const before = shown(at(entry.before, change.path));
          const after = change.op === 'remove' ? '—' : shown('value' in change ? change.value : at(entry.after, change.path));
          return (
            <tr>
              <th scope="row">
                <code>{change.path.slice(1).replace(/\//g, '.')}</code>
              </th>
              <td class="before" title={before}>
                {before}
              </td>
              <td class="after" title={after}>
                {after}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** Who made a change: the person (the `user` header) and the key, as far as the entry knows them. */
export function person(entry: Pick<AuditEntry, 'user' | 'actor'>): string {
  if (entry.user !== null && entry.actor !== null && entry.user !== entry.actor) return `${entry.user} (key ${entry.actor})`;
  return entry.user ?? entry.actor ?? 'unknown';
}
