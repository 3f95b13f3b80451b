import { z } from 'zod';

/**
 * String rules the request schemas state in their generated OpenAPI documents, spelled as regular
 * expressions that read the same in JavaScript (zod), Python and Rust (the tools that generate and
 * check requests from the documents): character classes are written out, not `\s`, whose members
 * differ between those engines.
 */

/** What String.prototype.trim removes: ECMAScript's WhiteSpace and LineTerminator characters. */
const TRIMMED = '\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';

/** No NUL character anywhere: the router refuses NUL in every value (Postgres cannot store it). */
// eslint-disable-next-line no-control-regex -- NUL is the character this pattern is about
export const NO_NUL = /^[^\x00]*$/;

/** No NUL, and at least one character that trimming keeps: what a trimmed, non-empty text needs. */
export const NOT_BLANK = new RegExp(`^[^\\x00]*[^\\x00${TRIMMED}][^\\x00]*$`);

/** At least `min` characters once trimmed (and no NUL). */
export const trimmedAtLeast = (min: number) =>
  min <= 1 ? NOT_BLANK : new RegExp(`^[${TRIMMED}]*[^\\x00${TRIMMED}][^\\x00]{${min - 2},}[^\\x00${TRIMMED}][${TRIMMED}]*$`);

/**
 * A text of 1 to `max` characters, trimmed. The length is checked before trimming, so the limit
 * the document states (maxLength) is the one the server applies; "not blank" is its pattern.
 */
export const trimmedText = (max: number, messages: { tooLong?: string; blank?: string } = {}) =>
  z
    .string()
    .max(max, messages.tooLong ?? `must be at most ${max} characters`)
    .regex(NOT_BLANK, messages.blank ?? 'must not be empty')
    .trim();

/** A literal string as the source of a regular expression that matches it as written ("C++", "PL/SQL"). */
export const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
