import type { ApiContext } from './context';

/** The success envelope of the spec: `{data, meta:{request_id[, total]}}`. */
export function sendData(ctx: ApiContext, data: unknown, opts: { status?: number; total?: number } = {}): void {
  ctx.status = opts.status ?? 200;
  ctx.body = {
    data,
    meta: { request_id: ctx.state.requestId, ...(opts.total === undefined ? {} : { total: opts.total }) },
  };
}
