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
      // A compressed body is refused, not decoded: decoding would need a second size limit (a
      // small gzip can expand a thousandfold), and read as text it is "not UTF-8", which misleads.
      const encoding = ctx.get('Content-Encoding').trim();
      if (encoding && encoding.toLowerCase() !== 'identity') {
        throw new AppError('unsupported_media_type', 415, `Request bodies must not be compressed (Content-Encoding: ${encoding}); send plain JSON`);
      }
      // Refused before reading when the client says up front the body is too big.
      if (Number(ctx.get('Content-Length') || 0) > MAX_BODY_BYTES) throw tooLarge();
      const raw = await readRaw(ctx.req);
      // No bytes is no body; anything else must be JSON ("\n" alone is not).
      if (raw !== '') {
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

/** Fatal: a body that is not valid UTF-8 is refused rather than read with U+FFFD in place of its bytes. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

async function readRaw(req: NodeJS.ReadableStream): Promise<string> {
  const bytes = await readRawBody(req);
  try {
    return utf8.decode(bytes);
  } catch {
    throw invalidRequest('Request body is not valid UTF-8', { problems: [{ field: '(body)', message: 'not valid UTF-8' }] });
  }
}

/**
 * 413 as soon as the limit is passed. The rest of the body is then read and dropped by Node (never
 * kept), bounded by the server's request timeout. Closing the connection instead would make the
 * kernel reset it while the client still sends, and the client would never see the 413.
 */
const tooLarge = () => new AppError('payload_too_large', 413, `Request body exceeds ${MAX_BODY_BYTES} bytes`);

/** The body's bytes exactly as sent (signature checks need them), up to the size limit. */
export async function readRawBody(req: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buf.length;
    if (size > MAX_BODY_BYTES) throw tooLarge();
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}
