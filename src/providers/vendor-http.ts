import type { z } from 'zod';
import { keyRejected, networkBusy, providerFailed } from './provider-errors';
import type { ProviderId } from './provider-ids';

export interface VendorRequest<S extends z.ZodType> {
  provider: ProviderId;
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: unknown;
  timeoutMs: number;
  /** What a usable 2xx answer looks like; anything else is a malformed answer (502). */
  schema: S;
  /** 404 means "no such record" (enrich): answer null instead of failing. */
  notFoundIsNull?: boolean;
}

/** Seconds from a Retry-After header (seconds or an HTTP date); 1 when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number {
  if (!header) return 1;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(1, seconds);
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(1, (at - now) / 1000) : 1;
}

/**
 * One vendor call over fetch (undici), mapped to our errors: 429 → network_busy with the vendor's
 * Retry-After, 401/403 → provider_unavailable, timeout, connection failure, other non-2xx and
 * answers that fail `schema` → provider_error. No retries here: callers decide (the API answers,
 * activities retry under their policy).
 */
export async function callVendor<S extends z.ZodType>(req: VendorRequest<S>): Promise<z.output<S> | null> {
  let res: Response;
  try {
    res = await fetch(req.url, {
      method: req.method,
      headers: { Accept: 'application/json', ...(req.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...req.headers },
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
      signal: AbortSignal.timeout(req.timeoutMs),
      redirect: 'error',
    });
  } catch (err) {
    const name = (err as Error).name;
    throw providerFailed(req.provider, name === 'TimeoutError' || name === 'AbortError' ? `no answer within ${req.timeoutMs} ms` : 'could not be reached');
  }
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    throw providerFailed(req.provider, (err as Error).name === 'TimeoutError' ? `no complete answer within ${req.timeoutMs} ms` : 'the answer was cut off');
  }
  if (res.status === 429) throw networkBusy(req.provider, retryAfterSeconds(res.headers.get('retry-after')), 'the vendor answered 429');
  if (res.status === 401 || res.status === 403) throw keyRejected(req.provider, res.status);
  if (res.status === 404 && req.notFoundIsNull) return null;
  if (!res.ok) throw providerFailed(req.provider, `HTTP ${res.status}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw providerFailed(req.provider, 'the answer was not JSON');
  }
  const parsed = req.schema.safeParse(json);
  if (!parsed.success) throw providerFailed(req.provider, `unexpected answer (${parsed.error.issues[0]?.path.join('.') || 'body'})`);
  return parsed.data;
}
