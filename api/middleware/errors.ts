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

function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const status = (err as { status?: number; expose?: boolean })?.status;
  // Koa/http-errors thrown by the framework itself (e.g. a body over the size limit).
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = status === 413 ? 'payload_too_large' : status === 415 ? 'unsupported_media_type' : 'invalid_request';
    return new AppError(code, status, (err as Error).message);
  }
  return new AppError('internal_error', 500, 'Internal server error; retry with backoff');
}
