import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header a delivery is signed in: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const SIGNATURE_HEADER = 'Service-Signature';
export const DEFAULT_TOLERANCE_SECONDS = 300;

export interface VerifyOptions {
  /** How far the signed time may be from now (default 300 s, the spec's five minutes). */
  toleranceSeconds?: number;
  /** The current time in unix seconds (for tests and replays). */
  now?: number;
}

/**
 * For receivers: true when `header` (Service-Signature) carries a v1 signature of the raw body —
 * the bytes as received, before any JSON parsing — keyed by the whole `whsec_` secret, made
 * within `toleranceSeconds` of now. Compares in constant time; any of several v1 entries may
 * match (secret rotation). The same scheme as Stripe's webhook signatures.
 */
export function verifyWebhookSignature(rawBody: string | Uint8Array, header: string | null | undefined, secret: string, opts: VerifyOptions = {}): boolean {
  if (typeof header !== 'string' || !secret) return false;
  let timestamp: string | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') timestamp = value;
    else if (key === 'v1') signatures.push(value);
  }
  if (!timestamp || !/^\d+$/.test(timestamp) || signatures.length === 0) return false;
  const now = opts.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > (opts.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
  return signatures.some((s) => {
    if (!/^[0-9a-f]+$/i.test(s)) return false;
    const given = Buffer.from(s, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
