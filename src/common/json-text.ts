/**
 * JSON text read without parsing it (the launch reading a stored user state's tags, `sdk/user-state.ts`),
 * and the body parser's nesting check.
 */

/**
 * How deep a body's arrays and objects may nest. Real bodies nest about ten
 * levels; thousands would overflow the stack of the recursive code that reads
 * or writes them (validation, JSON.stringify), a 500 for a client's mistake.
 */
export const MAX_JSON_DEPTH = 64;

/** Character codes of JSON's punctuation, for the scanners here and the stored state's (sdk/user-state.ts). */
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
export const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

/**
 * Whether a parsed JSON value nests arrays and objects deeper than `max` (the value itself is level
 * 1), depth first without recursion: `JSON.parse` reads any depth, the code after it may not.
 * Visits each array and object once, fewer steps than the text has characters, and allocates
 * nothing per value (a body's check is a fraction of parsing it).
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  /** The arrays and objects still to visit, and the level of each. */
  const nodes: object[] = [];
  const levels: number[] = [];
  const visit = (child: unknown, level: number): void => {
    if (child !== null && typeof child === 'object') {
      nodes.push(child);
      levels.push(level);
    }
  };
  visit(value, 1);
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const level = levels.pop()!;
    if (level > max) return true;
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index++) visit(node[index], level + 1);
    } else {
      // A parsed object's keys are all its own.
      for (const key in node) visit((node as Record<string, unknown>)[key], level + 1);
    }
  }
  return false;
}

/** The index of the quote closing the string opened at `start` (skipped with indexOf: strings are most of a body). */
function endOfString(text: string, start: number): number {
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
