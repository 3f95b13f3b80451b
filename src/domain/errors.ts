/**
 * Typed error thrown by domain and API code. Only the API error middleware turns it into the
 * spec's JSON shape; everything else just throws.
 */
export class AppError extends Error {
  constructor(
    readonly code: string | null,
    readonly status: number,
    message: string,
    readonly details: Record<string, unknown> | null = null,
    /** Extra response headers, e.g. Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const notFound = (code: string, what: string) => new AppError(code, 404, `${what} not found`);
export const invalidRequest = (message: string, details: Record<string, unknown> | null = null) => new AppError('invalid_request', 400, message, details);

/**
 * A zod schema-level message for a missing value only. Given as a plain string, zod would use it
 * for every problem of the schema (a 20,001-character text would be "…is required"); this answers
 * it only when the value is absent and leaves the rest to each check's own message.
 */
export const whenMissing =
  (message: string) =>
  (issue: { input?: unknown }): string | undefined =>
    issue.input === undefined ? message : undefined;
