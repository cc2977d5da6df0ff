import { StringDecoder } from 'node:string_decoder';
import { invalidRequest } from '../common/domain-error';
import { joinProblemTexts, MAX_PROBLEMS_NAMED } from '../common/problems';
import { canonicalUserId, userIdValue } from '../common/user-id';

/**
 * The user ids of a member upload (docs/decisions/0008-cohorts.md): a JSON body `{"userIds": [...]}` or a CSV /
 * plain-text stream, one id per line. Ids are signed 64-bit integers, kept as canonical
 * decimal strings. Bad ids are named by index or line in one message (the first 20, then how many more);
 * the caller then changes nothing.
 */

/** The most ids one JSON body may carry; longer lists go as CSV. */
const MAX_JSON_USER_IDS = 100_000;
/** A CSV upload's ids arrive in batches of this many (one multi-row insert each). */
const CSV_BATCH_SIZE = 1000;
/** The optional first line of a CSV upload. */
const CSV_HEADER = 'userid';

const ID_RULE = 'a signed 64-bit integer';
const show = (text: string): string => JSON.stringify(text.length > 40 ? `${text.slice(0, 37)}...` : text);
/** A line longer than this is no id: it is named without being kept whole. */
const MAX_LINE_LENGTH = 1000;

/** The bad ids of one upload: the first MAX_PROBLEMS_NAMED described, all counted. */
class BadIds {
  private readonly named: string[] = [];
  count = 0;

  add(describe: () => string): void {
    if (this.count++ < MAX_PROBLEMS_NAMED) this.named.push(describe());
  }

  /** Throws INVALID_REQUEST naming them, when there are any. */
  check(): void {
    if (this.count > 0) throw invalidRequest(joinProblemTexts(this.named, this.count));
  }
}

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
  const bad = new BadIds();
  const ids = userIds.map((id, index) => {
    if (typeof id === 'number' && !Number.isSafeInteger(id)) {
      bad.add(() => `userIds[${index}]: ${id} is not ${ID_RULE} exactly representable as a JSON number; send it as a decimal string`);
      return '';
    }
    const parsed = userIdValue(typeof id === 'string' ? id.trim() : id);
    if (parsed === null) bad.add(() => `userIds[${index}]: ${JSON.stringify(id)} is not ${ID_RULE}`);
    return parsed ?? '';
  });
  bad.check();
  return ids;
}

/**
 * The ids of a CSV / plain-text upload, read as a stream, in batches of CSV_BATCH_SIZE:
 * one id per line, an optional first line `userId`, blank lines ignored, lines numbered
 * from 1 (the header line included). After a bad line no more batches come: the rest is read
 * to name (up to 20) and count the other bad lines, then INVALID_REQUEST names them.
 */
export async function* csvUserIds(chunks: AsyncIterable<Buffer | string> | Iterable<Buffer | string>): AsyncGenerator<string[]> {
  const decoder = new StringDecoder('utf8');
  const bad = new BadIds();
  let batch: string[] = [];
  let lineNumber = 0;
  let rest = '';
  // The current line is over MAX_LINE_LENGTH and already named: the rest of it is skipped, not kept.
  let skipping = false;
  const readLine = (line: string): void => {
    lineNumber++;
    const text = line.trim();
    if (text === '' || (lineNumber === 1 && text.replace(/^\uFEFF/, '').toLowerCase() === CSV_HEADER)) {
      return;
    }
    const parsed = canonicalUserId(text.replace(/^\uFEFF/, ''));
    if (parsed === null) bad.add(() => `line ${lineNumber}: ${show(text)} is not a user id (${ID_RULE})`);
    else if (bad.count === 0) batch.push(parsed);
  };
  const endLine = (line: string): void => {
    if (skipping) {
      lineNumber++;
      skipping = false;
    } else {
      readLine(line);
    }
  };
  for await (const chunk of chunks) {
    const text = rest + (typeof chunk === 'string' ? chunk : decoder.write(chunk));
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      endLine(text.slice(start, end));
      start = end + 1;
    }
    rest = text.slice(start);
    if (rest.length > MAX_LINE_LENGTH) {
      if (!skipping) bad.add(() => `line ${lineNumber + 1}: ${show(rest)} is not a user id (${ID_RULE})`);
      skipping = true;
      rest = '';
    }
    if (bad.count === 0 && batch.length >= CSV_BATCH_SIZE) {
      yield batch;
      batch = [];
    }
  }
  rest += decoder.end();
  if (rest !== '' || skipping) endLine(rest);
  bad.check();
  if (batch.length > 0) yield batch;
}
