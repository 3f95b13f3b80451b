/** RFC 4180: fields with a comma, quote, CR or LF are quoted, quotes doubled; lines end in CRLF. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  // Callers pass strings, numbers and booleans (yes/no is decided before); anything else is as String() says.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (values: readonly unknown[]) => `${values.map(csvField).join(',')}\r\n`;
