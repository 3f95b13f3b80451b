import type { Middleware } from 'koa';
import { AppError, invalidRequest } from '../../src/domain/errors';
import type { ApiState } from '../context';

const MAX_BODY_BYTES = 1024 * 1024;

/** Reads and parses JSON request bodies; malformed JSON is 400 invalid_request. */
export function jsonBody(): Middleware<ApiState> {
  return async (ctx, next) => {
    if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(ctx.method) && hasBody(ctx.req.headers)) {
      const type = ctx.get('Content-Type');
      if (type && !/\bjson\b/i.test(type)) {
        throw new AppError('unsupported_media_type', 415, 'Request bodies must be JSON (Content-Type: application/json)');
      }
      const raw = await readRaw(ctx.req);
      if (raw.trim() !== '') {
        try {
          ctx.state.body = JSON.parse(raw);
        } catch (err) {
          throw invalidRequest(`Malformed JSON body: ${(err as Error).message}`);
        }
      }
    }
    await next();
  };
}

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
}

async function readRaw(req: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buf.length;
    if (size > MAX_BODY_BYTES) throw new AppError('payload_too_large', 413, `Request body exceeds ${MAX_BODY_BYTES} bytes`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}
