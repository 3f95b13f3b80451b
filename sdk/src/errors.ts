/** The body of every error answer (spec "Key API error shape"). */
interface ErrorBody {
  error?: { code?: unknown; message?: unknown; details?: unknown; request_id?: unknown };
}

/**
 * An error answer of the API: branch on `code`, quote `requestId` to support. A non-JSON answer
 * (a proxy's page) gets the code `http_<status>`.
 */
export class SourcingApiError extends Error {
  override readonly name = 'SourcingApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> | null,
    readonly requestId: string | null,
    /** Seconds the API asked to wait (the Retry-After header of a 429 or 503). */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }

  /** From an error response and its parsed body (whatever openapi-fetch parsed, or text). */
  static from(response: Response, body: unknown): SourcingApiError {
    const error = typeof body === 'object' && body !== null ? (body as ErrorBody).error : undefined;
    const str = (v: unknown) => (typeof v === 'string' ? v : null);
    return new SourcingApiError(
      response.status,
      str(error?.code) ?? `http_${response.status}`,
      str(error?.message) ?? `HTTP ${response.status} ${response.statusText}`.trim(),
      typeof error?.details === 'object' && error.details !== null ? (error.details as Record<string, unknown>) : null,
      str(error?.request_id) ?? response.headers.get('X-Request-Id'),
      retryAfterSeconds(response),
    );
  }
}

/** Retry-After in seconds (delta-seconds or an HTTP date), or null when absent or unreadable. */
export function retryAfterSeconds(response: Response): number | null {
  const value = response.headers.get('Retry-After');
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}
