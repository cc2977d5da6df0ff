import { StringDecoder } from 'node:string_decoder';
import { invalidRequest } from '../common/domain-error';
import { canonicalUserId, userIdValue } from '../common/user-id';

/**
 * The user ids of a member upload (docs/decisions/0008-cohorts.md): a JSON body `{"userIds": [...]}` or a CSV /
 * plain-text stream, one id per line. Ids are signed 64-bit integers, kept as canonical
 * decimal strings. The first bad id names its index or line; the caller then changes nothing.
 */

/** The most ids one JSON body may carry; longer lists go as CSV. */
const MAX_JSON_USER_IDS = 100_000;
/** A CSV upload's ids arrive in batches of this many (one multi-row insert each). */
const CSV_BATCH_SIZE = 1000;
/** The optional first line of a CSV upload. */
const CSV_HEADER = 'userid';

const ID_RULE = 'a signed 64-bit integer';
const show = (text: string): string => JSON.stringify(text.length > 40 ? `${text.slice(0, 37)}...` : text);

/** The ids of a JSON body, in order, canonical; integers beyond 2^53 must come as strings (JSON numbers that large are not exact). */
export function jsonUserIds(body: unknown): string[] {
  const userIds = (body as { userIds?: unknown } | null | undefined)?.userIds;
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !Array.isArray(userIds)) {
    throw invalidRequest('the body must be {"userIds": [...]} (JSON integers or decimal strings), or text/csv with one id per line');
  }
  if (userIds.length > MAX_JSON_USER_IDS) {
    throw invalidRequest(
      `userIds has ${userIds.length} ids; a JSON body takes at most ${MAX_JSON_USER_IDS} (upload longer lists as text/csv)`,
    );
  }
  return userIds.map((id, index) => {
    if (typeof id === 'number' && !Number.isSafeInteger(id)) {
      throw invalidRequest(
        `userIds[${index}]: ${id} is not ${ID_RULE} exactly representable as a JSON number; send it as a decimal string`,
      );
    }
    const parsed = userIdValue(typeof id === 'string' ? id.trim() : id);
    if (parsed === null) {
      throw invalidRequest(`userIds[${index}]: ${JSON.stringify(id)} is not ${ID_RULE}`);
    }
    return parsed;
  });
}

/**
 * The ids of a CSV / plain-text upload, read as a stream, in batches of CSV_BATCH_SIZE:
 * one id per line, an optional first line `userId`, blank lines ignored, lines numbered
 * from 1 (the header line included).
 */
export async function* csvUserIds(chunks: AsyncIterable<Buffer | string> | Iterable<Buffer | string>): AsyncGenerator<string[]> {
  const decoder = new StringDecoder('utf8');
  let batch: string[] = [];
  let lineNumber = 0;
  let rest = '';
  const readLine = (line: string): void => {
    lineNumber++;
    const text = line.trim();
    if (text === '' || (lineNumber === 1 && text.replace(/^\uFEFF/, '').toLowerCase() === CSV_HEADER)) {
      return;
    }
    const parsed = canonicalUserId(text.replace(/^\uFEFF/, ''));
    if (parsed === null) {
      throw invalidRequest(`line ${lineNumber}: ${show(text)} is not a user id (${ID_RULE})`);
    }
    batch.push(parsed);
  };
  for await (const chunk of chunks) {
    const text = rest + (typeof chunk === 'string' ? chunk : decoder.write(chunk));
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      readLine(text.slice(start, end));
      start = end + 1;
    }
    rest = text.slice(start);
    if (rest.length > 1000) {
      throw invalidRequest(`line ${lineNumber + 1}: ${show(rest)} is not a user id (${ID_RULE})`);
    }
    if (batch.length >= CSV_BATCH_SIZE) {
      yield batch;
      batch = [];
    }
  }
  rest += decoder.end();
  if (rest !== '') readLine(rest);
  if (batch.length > 0) yield batch;
}
