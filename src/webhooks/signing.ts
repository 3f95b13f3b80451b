import { createHmac } from 'node:crypto';

/**
 * `Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>` over `<t>.<raw body>`, keyed by the
 * whole secret including its `whsec_` prefix (spec "Signature"; the same scheme as Stripe's).
 * Receivers verify it with the SDK's verifyWebhookSignature (sdk/src/webhooks.ts).
 */

export const SIGNATURE_HEADER = 'Service-Signature';

export function signatureHeader(body: string | Buffer, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')}`;
}
