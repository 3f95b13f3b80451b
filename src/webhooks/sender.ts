import https from 'node:https';
import type { AttemptResult } from '../db/webhook.repository';
import { pinnedLookup, resolveWebhookTarget, UnsafeUrlError, type SsrfPolicy } from './ssrf';

/** The endpoint must answer 2xx within this time (spec "Delivery rules"). */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** Response bodies are kept only as an excerpt, for the attempt record. */
export const RESPONSE_EXCERPT_BYTES = 2048;

export interface SendOptions {
  policy: SsrfPolicy;
  timeoutMs?: number;
  /** Trusted CAs instead of the system ones (unit tests against a self-signed receiver). */
  ca?: string | Buffer;
}

function excerptOf(chunks: Buffer[]): string | null {
  if (!chunks.length) return null;
  let text = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8');
  // A character cut in half decodes to U+FFFD (3 bytes): drop it so the excerpt stays within 2 KB.
  while (Buffer.byteLength(text) > RESPONSE_EXCERPT_BYTES) text = text.slice(0, -1);
  return text;
}

/**
 * One POST. The URL is checked again (DNS can change since creation) and the connection pinned
 * to the checked address; redirects are never followed. Never throws: every outcome is a result.
 */
export async function postWebhook(rawUrl: string, body: string, headers: Record<string, string>, opts: SendOptions): Promise<AttemptResult> {
  const started = performance.now();
  const timeoutMs = opts.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const done = (r: Omit<AttemptResult, 'durationMs'>): AttemptResult => ({ ...r, durationMs: performance.now() - started });

  let target;
  try {
    target = await withDeadline(resolveWebhookTarget(rawUrl, opts.policy), timeoutMs);
  } catch (err) {
    if (err instanceof UnsafeUrlError) {
      const where = err.details.address ? ` (${err.details.address})` : '';
      return done({ ok: false, statusCode: null, error: `refused: ${err.reason}${where}`, excerpt: null });
    }
    return done({ ok: false, statusCode: null, error: `timeout: no DNS answer within ${timeoutMs} ms`, excerpt: null });
  }
  const { url, host, address, family } = target;
  const remaining = Math.max(1, timeoutMs - (performance.now() - started));

  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (r: Omit<AttemptResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(r));
      req.destroy();
    };
    const req = https.request(
      {
        method: 'POST',
        host,
        port: url.port || 443,
        path: `${url.pathname}${url.search}`,
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        lookup: pinnedLookup(address, family),
        agent: false, // a fresh, pinned connection per attempt; never a pooled one to another address
        ...(opts.ca ? { ca: opts.ca } : {}),
      },
      (res) => {
        const statusCode = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        const settle = () => {
          const excerpt = excerptOf(chunks);
          if (statusCode >= 200 && statusCode < 300) return finish({ ok: true, statusCode, error: null, excerpt });
          if (statusCode >= 300 && statusCode < 400) {
            const location = String(res.headers.location ?? '').slice(0, 200);
            return finish({ ok: false, statusCode, error: `redirect not followed${location ? ` (Location: ${location})` : ''}`, excerpt });
          }
          finish({ ok: false, statusCode, error: `endpoint answered ${statusCode}`, excerpt });
        };
        res.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_EXCERPT_BYTES) chunks.push(chunk);
          size += chunk.length;
          if (size >= RESPONSE_EXCERPT_BYTES) settle();
        });
        res.on('end', settle);
        res.on('error', settle);
      },
    );
    const timer = setTimeout(() => finish({ ok: false, statusCode: null, error: `timeout: no answer within ${timeoutMs} ms`, excerpt: null }), remaining);
    req.on('error', (err: NodeJS.ErrnoException) => {
      const code = err.code ?? 'ERROR';
      const kind = code === 'ECONNREFUSED' ? 'connection refused' : /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO/.test(code) ? 'tls error' : 'connection error';
      finish({ ok: false, statusCode: null, error: `${kind}: ${code}`, excerpt: null });
    });
    req.end(body);
  });
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('deadline')), ms)))]).finally(() => clearTimeout(timer));
}
