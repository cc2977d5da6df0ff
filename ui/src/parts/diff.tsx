import type { AuditEntry } from '../types';
import { ColumnHeads } from './column-heads';

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

/** Fields that hold an instant as epoch ms (`at`, `createdAt`, `startTime`, …): shown as local times. */
const INSTANT_FIELD = /(^at|At|Time)$/;

/** A value as the diff shows it: JSON, with instants as local times. */
function shown(value: unknown, field: string): string {
  if (value === undefined) return '—';
  const local = (key: string, inner: unknown): unknown =>
    typeof inner === 'number' && INSTANT_FIELD.test(key) ? new Date(inner).toLocaleString() : inner;
  return JSON.stringify(local(field, value), local);
}

/** A changed field: its JSON pointer, its value before and after (undefined: absent). */
interface Change {
  path: string;
  before: unknown;
  after: unknown;
}

/**
 * The fields an entry changed, from its JSON Patch; a whole-record patch (a create, a delete, an erase) has
 * none: a create or delete says so, anything else lists the fields of what it recorded.
 */
function changesOf(entry: AuditEntry): Change[] | string {
  const fields = entry.changes.filter((change) => change.path !== '');
  if (fields.length > 0) {
    return fields.map((change) => ({
      path: change.path,
      before: at(entry.before, change.path),
      after: change.op === 'remove' ? undefined : 'value' in change ? change.value : at(entry.after, change.path),
    }));
  }
  if (entry.action === 'create') return 'created';
  if (entry.after === null) return 'deleted';
  if (entry.before !== null) return 'no field changed';
  return Object.entries(entry.after).map(([field, value]) => ({ path: `/${field}`, before: undefined, after: value }));
}

/** The fields an audit entry changed, each with its value before and after (from the entry's JSON Patch). */
export function FieldDiff({ entry }: { entry: AuditEntry }) {
  const changes = changesOf(entry);
  if (typeof changes === 'string') return <p class="muted">{changes}</p>;
  return (
    <table class="diff">
      <ColumnHeads names={['Field', 'Before', 'After']} />
      <tbody>
        {changes.map((change) => {
          const field = change.path.split('/').pop() ?? '';
          const before = shown(change.before, field);
          const after = shown(change.after, field);
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
