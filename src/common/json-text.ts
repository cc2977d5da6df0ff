/**
 * JSON text read without parsing it: the body parser's nesting check, and the launch's scan
 * of a stored user state (`sdk/user-state.ts`).
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

/** Whether JSON text nests deeper than `max`, in one pass (brackets inside strings do not count). */
export function nestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === QUOTE) {
      i = endOfString(text, i);
    } else if (char === OPEN_BRACE || char === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (char === CLOSE_BRACE || char === CLOSE_BRACKET) {
      depth--;
    }
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
