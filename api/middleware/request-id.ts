import { randomBytes } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../../src/logger';
import type { ApiState } from '../context';

// A caller-sent id is echoed when it is 1–128 printable ASCII characters (DESIGN.md §3).
const ACCEPTABLE_REQUEST_ID = /^[\x20-\x7e]{1,128}$/;

export const newRequestId = () => `req_${randomBytes(12).toString('hex')}`;

/** First middleware: assigns the request id, a request-scoped logger, and logs each response. */
export function requestId(logger: Logger): Middleware<ApiState> {
  return async (ctx, next) => {
    const sent = ctx.get('X-Request-Id').trim();
    const id = ACCEPTABLE_REQUEST_ID.test(sent) ? sent : newRequestId();
    ctx.state.requestId = id;
    ctx.state.log = logger.child({ request_id: id });
    ctx.set('X-Request-Id', id);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      ctx.state.log.info({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10 }, 'request');
    }
  };
}
