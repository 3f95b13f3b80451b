import type { Middleware } from 'koa';
import { AppError, invalidRequest } from '../../src/domain/errors';
import type { ApiState } from '../context';

const MAX_BODY_BYTES = 1024 * 1024;
/** Deeper bodies are refused at parse time, before any recursive code (canonical JSON, zod) sees them. */
export const MAX_JSON_DEPTH = 64;

/** Reads and parses JSON request bodies; malformed or too deeply nested JSON is 400 invalid_request. */
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
        if (jsonDepth(ctx.state.body) > MAX_JSON_DEPTH) {
          throw invalidRequest(`(body): JSON nested deeper than ${MAX_JSON_DEPTH} levels`, {
            problems: [{ field: '(body)', message: `nested deeper than ${MAX_JSON_DEPTH} levels` }],
          });
        }
      }
    }
    await next();
  };
}

/** Nesting depth of a parsed JSON value (a scalar is 0), walked without recursion. */
function jsonDepth(value: unknown): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length) {
    const [node, depth] = pending.pop()!;
    if (node === null || typeof node !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > MAX_JSON_DEPTH) return deepest;
    for (const child of Object.values(node)) pending.push([child, depth + 1]);
  }
  return deepest;
}

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
}

async function readRaw(req: NodeJS.ReadableStream): Promise<string> {
  return (await readRawBody(req)).toString('utf8');
}

/** The body's bytes exactly as sent (signature checks need them), up to the size limit. */
export async function readRawBody(req: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buf.length;
    if (size > MAX_BODY_BYTES) throw new AppError('payload_too_large', 413, `Request body exceeds ${MAX_BODY_BYTES} bytes`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}
