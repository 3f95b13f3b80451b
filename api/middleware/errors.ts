import type { Middleware } from 'koa';
import { AppError } from '../../src/domain/errors';
import type { ApiState } from '../context';

/**
 * The only place that turns errors into the spec's error shape. 5xx never expose internals;
 * they are logged with the request id.
 */
export function errorHandler(): Middleware<ApiState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const appError = toAppError(err);
      if (appError.status >= 500) ctx.state.log.error({ err }, 'request failed');
      for (const [name, value] of Object.entries(appError.headers)) ctx.set(name, value);
      const requestId = ctx.state.requestId;
      ctx.status = appError.status;
      ctx.body = {
        error: { code: appError.code, message: appError.message, details: appError.details, request_id: requestId },
        meta: { request_id: requestId, correlation_id: requestId },
      };
    }
  };
}

const DB_RETRY_AFTER_SECONDS = 5;
/** Node socket errors of a connection that could not be made, was cut or went unanswered. */
const CONNECTION_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'EAI_AGAIN']);
/**
 * What node-postgres and knex say, without a code, of a connection that is gone or cannot be had:
 * a client used after its connection died ("… not queryable"),
 * a connection cut mid-query, a server that never answered (pg's "timeout expired"), a pool with no connection free.
 */
const UNAVAILABLE_MESSAGES =
  /^(?:Knex: Timeout acquiring a connection|Connection terminated|Client has encountered a connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|timeout expired$|Timeout acquiring a connection)/;
/** Postgres SQLSTATEs of a server going away or not taking connections (class 08: connection exceptions). */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03']);

/**
 * Whether the error says the database cannot be reached right now (restart, outage, pool
 * exhausted), rather than that the request or our code is wrong. Looks through `cause` and the
 * `errors` of an AggregateError (a refused connection to every address of a host).
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const { code, name, message, cause, errors } = err as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && (CONNECTION_ERRNOS.has(code) || UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  if (name === 'KnexTimeoutError' || (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message))) return true;
  if (Array.isArray(errors) && errors.some((e) => isDatabaseUnavailable(e, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}

/** 503 service_unavailable with Retry-After: the answer of both APIs while the database is down. */
export function databaseUnavailableError(): AppError {
  return new AppError(
    'service_unavailable',
    503,
    'The database is unavailable right now; retry shortly',
    { retry_after_seconds: DB_RETRY_AFTER_SECONDS },
    { 'Retry-After': String(DB_RETRY_AFTER_SECONDS) },
  );
}

function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (isDatabaseUnavailable(err)) return databaseUnavailableError();
  const status = (err as { status?: number; expose?: boolean })?.status;
  // Koa/http-errors thrown by the framework itself (e.g. a body over the size limit).
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = status === 413 ? 'payload_too_large' : status === 415 ? 'unsupported_media_type' : 'invalid_request';
    return new AppError(code, status, (err as Error).message);
  }
  return new AppError('internal_error', 500, 'Internal server error; retry with backoff');
}
