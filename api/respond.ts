import type { ApiContext } from './context';

/** The success envelope of the spec: `{data, meta:{request_id[, total]}}`. */
export function sendData(ctx: ApiContext, data: unknown, opts: { status?: number; total?: number } = {}): void {
  ctx.status = opts.status ?? 200;
  ctx.body = {
    data,
    meta: { request_id: ctx.state.requestId, ...(opts.total === undefined ? {} : { total: opts.total }) },
  };
}

/** The same envelope around `data` that is already JSON text (large lists built without re-parsing). */
export function sendRawData(ctx: ApiContext, dataJson: string, opts: { status?: number } = {}): void {
  ctx.status = opts.status ?? 200;
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = `{"data":${dataJson},"meta":{"request_id":${JSON.stringify(ctx.state.requestId)}}}`;
}
