/**
 * A cell a spreadsheet would take for a formula (OWASP "CSV Injection"): one that starts with
 * `=`, `+`, `-`, `@`, a tab or a carriage return. Profile text comes from third parties, so every
 * such text cell is written with a leading `'`, which spreadsheets read as "this is text".
 * The SQL function csv_cell (src/db/sql/csv-cell.sql) applies the same rule where Postgres writes
 * the cells; test/integration/csv-injection.test.ts holds the two to the same answers.
 */
const FORMULA_START = /^[=+@\t\r-]/;

/** The text of a cell as written: strings that start like a formula get a leading `'`. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  // Numbers are ours (scores, counts, pages) and stay numbers; only text can carry a formula.
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  // Callers pass strings (yes/no is decided before); anything else is as String() says.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string
  const text = String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** RFC 4180 over the cell's text: fields with a comma, quote, CR or LF are quoted, quotes doubled. */
export function csvField(value: unknown): string {
  const text = csvCell(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line; lines end in CRLF. */
export const csvLine = (values: readonly unknown[]) => `${values.map(csvField).join(',')}\r\n`;
