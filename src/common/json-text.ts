/**
 * JSON text read without parsing it (the launch's scan of a stored user state, `sdk/user-state.ts`),
 * and the body parser's nesting check.
 */

/**
 * How deep a body's arrays and objects may nest. Real bodies nest about ten
 * levels; thousands would overflow the stack of the recursive code that reads
 * or writes them (validation, JSON.stringify), a 500 for a client's mistake.
 */
export const MAX_JSON_DEPTH = 64;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

/**
 * Whether a parsed JSON value nests arrays and objects deeper than `max` (the value itself is level
 * 1), level by level without recursion: `JSON.parse` reads any depth, the code after it may not.
 * Visits each array and object once, fewer steps than the text has characters.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  let level: object[] = value !== null && typeof value === 'object' ? [value] : [];
  for (let depth = 1; level.length > 0; depth++) {
    if (depth > max) return true;
    const next: object[] = [];
    for (const node of level) {
      const children: unknown[] = Array.isArray(node) ? node : Object.values(node);
      for (const child of children) {
        if (child !== null && typeof child === 'object') next.push(child);
      }
    }
    level = next;
  }
  return false;
}

/** The index of the quote closing the string opened at `start` (skipped with indexOf: strings are most of a body). */
export function endOfString(text: string, start: number): number {
  for (let i = start; ;) {
    i = text.indexOf('"', i + 1);
    if (i === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(i - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return i;
  }
}

/** Where the JSON value starting at `start` ends (the index after it), in text without whitespace. */
export function valueEnd(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (first === QUOTE) return endOfString(text, start) + 1;
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    for (let i = start; i < text.length; i++) {
      const char = text.charCodeAt(i);
      if (char === QUOTE) {
        i = endOfString(text, i);
      } else if (char === OPEN_BRACE || char === OPEN_BRACKET) {
        depth++;
      } else if ((char === CLOSE_BRACE || char === CLOSE_BRACKET) && --depth === 0) {
        return i + 1;
      }
    }
    return text.length;
  }
  let i = start;
  while (i < text.length) {
    const char = text.charCodeAt(i);
    if (char === COMMA || char === CLOSE_BRACE || char === CLOSE_BRACKET) break;
    i++;
  }
  return i;
}
