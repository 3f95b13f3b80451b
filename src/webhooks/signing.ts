import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * `Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>` over `<t>.<raw body>`, keyed by the
 * whole secret including its `whsec_` prefix (spec "Signature"; the same scheme as Stripe's).
 */

export const SIGNATURE_HEADER = 'Service-Signature';
export const DEFAULT_TOLERANCE_SECONDS = 300;

const hmac = (secret: string, timestamp: number | string, body: string | Buffer) =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');

export function signatureHeader(body: string | Buffer, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${hmac(secret, timestamp, body)}`;
}

/**
 * For receivers: true when `header` carries a v1 signature of the raw body (the bytes as
 * received, before any JSON parsing) made with `secret` at a time within `toleranceSeconds` of
 * now. Compares in constant time; accepts several v1 entries (secret rotation).
 */
export function verifyWebhookSignature(
  rawBody: string | Buffer,
  header: string | null | undefined,
  secret: string,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
): boolean {
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
  if (Math.abs(Math.floor(Date.now() / 1000) - Number(timestamp)) > toleranceSeconds) return false;
  const expected = Buffer.from(hmac(secret, timestamp, rawBody), 'hex');
  return signatures.some((s) => {
    const given = Buffer.from(s, 'hex');
    return /^[0-9a-f]+$/i.test(s) && given.length === expected.length && timingSafeEqual(given, expected);
  });
}
