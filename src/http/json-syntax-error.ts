import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

/** What each of jsonc-parser's errors (by `printParseErrorCode`) means, in an operator's words. */
const WORDS: Readonly<Record<string, string>> = {
  InvalidSymbol: 'an unexpected character',
  InvalidNumberFormat: 'a malformed number',
  PropertyNameExpected: 'a property name in double quotes expected (no trailing comma)',
  ValueExpected: 'a value expected (no trailing comma)',
  ColonExpected: "':' expected",
  CommaExpected: "',' expected",
  CloseBraceExpected: "'}' expected",
  CloseBracketExpected: "']' expected",
  EndOfFileExpected: 'more text after the JSON value',
  InvalidCommentToken: 'a comment (JSON has none)',
  UnexpectedEndOfComment: 'an unterminated comment (JSON has none)',
  UnexpectedEndOfString: 'an unterminated string (a line break inside a string must be written \\n)',
  UnexpectedEndOfNumber: 'an unterminated number',
  InvalidUnicode: 'a malformed \\u escape',
  InvalidEscapeCharacter: 'an unknown escape after \\',
  InvalidCharacter: 'a control character inside a string (write it escaped)',
};

/**
 * Where and why a text that `JSON.parse` refused is not JSON: "… at line 3, column 8: ',' expected", the
 * first problem only (later ones often follow from it). jsonc-parser reads it with comments and trailing
 * commas refused, as JSON has neither; it runs only on refused bodies, so accepted ones cost nothing more.
 * Null when it finds nothing (the text is JSON after all, e.g. refused for another reason).
 */
export function jsonSyntaxError(text: string): string | null {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (first === undefined) return null;
  const before = text.slice(0, first.offset);
  const line = before.split('\n').length;
  const column = first.offset - before.lastIndexOf('\n');
  return `the body is not valid JSON: at line ${line}, column ${column}, ${WORDS[printParseErrorCode(first.error)] ?? printParseErrorCode(first.error)}`;
}
