import { randomFillSync } from 'node:crypto';
import type { Middleware } from 'koa';
import { withoutRedaction, type Logger } from '../../src/logger';
import { recordedPath, type ApiState } from '../context';

// A caller-sent id is echoed when it is 1–128 printable ASCII characters (DESIGN.md §3).
const ACCEPTABLE_REQUEST_ID = /^[\x20-\x7e]{1,128}$/;

// Random bytes are drawn from the OS 4 KiB at a time (one call per 341 ids instead of one each).
const pool = Buffer.alloc(4096);
let used = pool.length;
export const newRequestId = () => {
  if (used + 12 > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += 12;
  return `req_${pool.toString('hex', used - 12, used)}`;
};

/** The fields every log line of a request carries, and its child logger once one was needed. */
interface RequestLog {
  bindings: Record<string, string>;
  child?: Logger;
}
const requestLogs = new WeakMap<object, RequestLog>();

/**
 * Adds fields (workspace_id, key_id) to every later log line of the request. Cheap: a pino child
 * costs tens of µs, so `ctx.state.log` is made only when something logs through it.
 */
export function addLogBindings(state: ApiState, fields: Record<string, string>): void {
  const entry = requestLogs.get(state);
  if (!entry) return;
  Object.assign(entry.bindings, fields);
  if (entry.child) entry.child = entry.child.child(fields);
}

/** First middleware: assigns the request id, a request-scoped logger, and logs each response. */
export function requestId(logger: Logger): Middleware<ApiState> {
  const requestLines = withoutRedaction(logger);
  return async (ctx, next) => {
    const sent = ctx.get('X-Request-Id').trim();
    const id = ACCEPTABLE_REQUEST_ID.test(sent) ? sent : newRequestId();
    ctx.state.requestId = id;
    const entry: RequestLog = { bindings: { request_id: id } };
    requestLogs.set(ctx.state, entry);
    Object.defineProperty(ctx.state, 'log', {
      configurable: true,
      enumerable: true,
      // Read-only: fields are added with addLogBindings, which keeps the request line's too.
      get: () => (entry.child ??= logger.child(entry.bindings)),
    });
    ctx.set('X-Request-Id', id);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      if (logger.isLevelEnabled('info')) {
        const line = { method: ctx.method, path: recordedPath(ctx), status: ctx.status, ms: Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10 };
        // The bindings go in the line itself (the same fields a child would add), through the
        // logger without redaction: every field here is set by this middleware.
        requestLines.info({ ...entry.bindings, ...line }, 'request');
      }
    }
  };
}
