import { Readable } from 'node:stream';
import type { ApiContext } from './context';

/** The success envelope of the spec: `{data, meta:{request_id[, total]}}`. */
export function sendData(ctx: ApiContext, data: unknown, opts: { status?: number; total?: number } = {}): void {
  ctx.status = opts.status ?? 200;
  ctx.body = {
    data,
    meta: { request_id: ctx.state.requestId, ...(opts.total === undefined ? {} : { total: opts.total }) },
  };
}

/**
 * The same envelope around `data` that is already JSON text (large lists built without re-parsing),
 * encoded once up to the request id: a cache keeps these bytes and `sendEncodedData` completes
 * them per request, so a cached page is neither rebuilt as a string nor encoded as UTF-8 again.
 */
export function encodeData(dataJson: string): Buffer {
  return Buffer.from(`{"data":${dataJson},"meta":{"request_id":`);
}

/** A 200 with the envelope `encodeData` began and this request's id. */
export function sendEncodedData(ctx: ApiContext, encoded: Buffer): void {
  ctx.status = 200;
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = Buffer.concat([encoded, Buffer.from(`${JSON.stringify(ctx.state.requestId)}}}`)]);
}

/**
 * The envelope around a list streamed batch by batch, for lists too long to hold in memory:
 * `meta` (with `total`) comes after `data`, once the count is known. One batch is serialised at a
 * time; a failure midway cuts the response short, which a client sees as invalid JSON.
 */
export function sendDataStream(ctx: ApiContext, batches: AsyncIterable<unknown[]>): void {
  const requestId = ctx.state.requestId;
  async function* chunks() {
    yield '{"data":[';
    let total = 0;
    for await (const batch of batches) {
      if (batch.length === 0) continue;
      yield (total > 0 ? ',' : '') + batch.map((item) => JSON.stringify(item)).join(',');
      total += batch.length;
    }
    yield `],"meta":{"request_id":${JSON.stringify(requestId)},"total":${total}}}`;
  }
  ctx.status = 200;
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = Readable.from(chunks(), { highWaterMark: 1, objectMode: false });
}
