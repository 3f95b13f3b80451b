/** RFC 4180: fields with a comma, quote, CR or LF are quoted, quotes doubled; lines end in CRLF. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (values: readonly unknown[]) => `${values.map(csvField).join(',')}\r\n`;
