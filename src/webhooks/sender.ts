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
  const port = Number(url.port || 443);
  const attemptOnce = (agent: https.Agent | false) => {
    const remaining = Math.max(1, timeoutMs - (performance.now() - started));
    return requestOnce({ host, port, path: `${url.pathname}${url.search}`, agent, lookup: pinnedLookup(address, family), ca: opts.ca }, body, headers, {
      waitMs: remaining,
      timeoutMs,
    });
  };
  const first = await attemptOnce(pinnedAgent(host, port, address, family, opts.ca));
  // A kept-alive connection the endpoint closed just as we reused it fails before any answer;
  // that says nothing about the endpoint, so it gets one fresh connection (still pinned).
  return done(first === STALE_CONNECTION ? ((await attemptOnce(false)) as Omit<AttemptResult, 'durationMs'>) : first);
}

/** Idle kept-alive connections close after this (below the 5 s Node and nginx servers keep them). */
const IDLE_CONNECTION_MS = 4000;
const MAX_POOLED_TARGETS = 512;
/** Connections per target: enough that a burst to one endpoint rarely waits for a free one. */
const CONNECTIONS_PER_TARGET = 64;
const pools = new Map<string, https.Agent>();

/**
 * A keep-alive agent per (host, port, checked address): connections are reused only to the
 * address this attempt resolved and checked, so pinning holds, and a busy endpoint is not
 * handed a new TLS handshake per delivery. Least recently used targets are forgotten; their idle
 * connections close on their own after IDLE_CONNECTION_MS.
 */
function pinnedAgent(host: string, port: number, address: string, family: 4 | 6, ca?: string | Buffer): https.Agent {
  const key = `${host}|${port}|${address}|${ca ? 'custom-ca' : 'system-ca'}`;
  let agent = pools.get(key);
  if (agent) pools.delete(key);
  else
    agent = new https.Agent({
      keepAlive: true,
      timeout: IDLE_CONNECTION_MS,
      maxSockets: CONNECTIONS_PER_TARGET,
      maxFreeSockets: CONNECTIONS_PER_TARGET,
      lookup: pinnedLookup(address, family),
      ...(ca ? { ca } : {}),
    });
  pools.set(key, agent);
  if (pools.size > MAX_POOLED_TARGETS) pools.delete(pools.keys().next().value!);
  return agent;
}

const STALE_CONNECTION = Symbol('stale kept-alive connection');

interface RequestTarget {
  host: string;
  port: number;
  path: string;
  agent: https.Agent | false;
  lookup: ReturnType<typeof pinnedLookup>;
  ca?: string | Buffer;
}

/**
 * One POST on one connection; never throws. Redirects are results, never followed. `waitMs` is
 * what is left of the attempt's `timeoutMs` (the DNS check used the rest).
 */
function requestOnce(
  target: RequestTarget,
  body: string,
  headers: Record<string, string>,
  { waitMs, timeoutMs }: { waitMs: number; timeoutMs: number },
): Promise<Omit<AttemptResult, 'durationMs'> | typeof STALE_CONNECTION> {
  return new Promise((resolve) => {
    let settled = false;
    let answered = false;
    let completed = false;
    const finish = (r: Omit<AttemptResult, 'durationMs'> | typeof STALE_CONNECTION) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
      // A complete answer leaves the connection to the pool; anything else closes it.
      if (r === STALE_CONNECTION || !r.ok || !completed) req.destroy();
    };
    const req = https.request(
      {
        method: 'POST',
        host: target.host,
        port: target.port,
        path: target.path,
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        lookup: target.lookup,
        agent: target.agent,
        ...(target.ca ? { ca: target.ca } : {}),
      },
      (res) => {
        answered = true;
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
        res.on('end', () => {
          completed = true;
          settle();
        });
        res.on('error', settle);
      },
    );
    const timer = setTimeout(() => finish({ ok: false, statusCode: null, error: `timeout: no answer within ${timeoutMs} ms`, excerpt: null }), waitMs);
    req.on('error', (err: NodeJS.ErrnoException) => {
      const code = err.code ?? 'ERROR';
      if (req.reusedSocket && !answered && (code === 'ECONNRESET' || code === 'EPIPE')) return finish(STALE_CONNECTION);
      const kind = code === 'ECONNREFUSED' ? 'connection refused' : /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO/.test(code) ? 'tls error' : 'connection error';
      finish({ ok: false, statusCode: null, error: `${kind}: ${code}`, excerpt: null });
    });
    req.end(body);
  });
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('deadline')), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}
