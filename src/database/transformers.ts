import type { ValueTransformer } from 'typeorm';

/** A JSON document written as text already, for a write to store as it is: a document large enough to matter is serialised once. */
class JsonText {
  constructor(readonly text: string) {}
}

/** A JSON column's value given as its text (`JSON.stringify` of the value), typed as the column's value for TypeORM. */
export const jsonColumnText = <T>(text: string): T => new JsonText(text) as unknown as T;

/** JSON documents in text columns: read back identically on SQLite, MySQL and MariaDB. */
export const jsonTransformer: ValueTransformer = {
  to: (value: unknown) =>
    value === undefined ? undefined : value === null ? null : value instanceof JsonText ? value.text : JSON.stringify(value),
  from: (value: string | null) => (value === null || value === undefined ? value : JSON.parse(value)),
};

/**
 * SQLite stores booleans as 0/1 integers, MySQL as TINYINT; entities hold booleans. Writes hand
 * the drivers a real boolean: TypeORM's SQLite driver stores anything but `true` as 0.
 */
export const booleanTransformer: ValueTransformer = {
  to: (value: unknown) => (value === undefined || value === null ? value : Boolean(value)),
  from: (value: number | boolean | null) => (value === null || value === undefined ? value : Boolean(value)),
};

/** A bigint column as a JS number (ids, counts, epoch ms: all within 2^53), whatever the driver hands over. */
export const bigintTransformer: ValueTransformer = {
  to: (value: unknown) => value,
  from: (value: number | string | null) => (value === null || value === undefined ? value : Number(value)),
};
