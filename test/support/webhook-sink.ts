import Stripe from 'stripe';
import { verifyWebhookSignature } from '../../sdk/src';
import type { Db } from '../../src/db/knex';
import { makeTestCert, startHttpsReceiver, type HttpsReceiver, type Received, type Responder } from './https-receiver';

/**
 * Where the suite's webhook endpoints point: an HTTPS receiver on 127.0.0.1 with the run's
 * certificate (every process of `npm test` trusts its CA), recording what arrives. A stack that
 * delivers to it needs SINK_ENV: loopback is otherwise refused as a private address, which the
 * SSRF tests prove on stacks without it.
 */
export const SINK_ENV = { WEBHOOK_ALLOWED_PRIVATE_CIDRS: '127.0.0.0/8' } as const;

export function startWebhookSink(responder?: Responder): Promise<HttpsReceiver> {
  return startHttpsReceiver(makeTestCert(), responder);
}

const stripe = new Stripe('sk_test_not_used');

/**
 * A delivery as the spec describes it: signed (our verifier and Stripe's accept it, a changed
 * body fails), the spec's headers, and an envelope equal to the outbox event it carries.
 */
export async function expectSignedEnvelope(db: Db, req: Received, secret: string, workspaceId: string): Promise<void> {
  const signature = req.headers['service-signature'] as string;
  expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  expect(verifyWebhookSignature(req.raw, signature, secret)).toBe(true);
  expect(stripe.webhooks.constructEvent(req.raw.toString('utf8'), signature, secret).id).toBe(req.json.id);
  expect(verifyWebhookSignature(Buffer.concat([req.raw, Buffer.from(' ')]), signature, secret)).toBe(false);
  expect(req.headers).toMatchObject({
    'service-event-id': req.json.id,
    'service-event-type': req.json.type,
    'user-agent': 'Service-Webhooks/1',
    'content-type': 'application/json',
  });
  const row = await db('outbox_events').where({ id: req.json.id }).first();
  expect(row).toBeDefined();
  expect(req.json).toEqual({
    id: row.id,
    type: row.type,
    created_at: row.created_at.toISOString(),
    workspace_id: workspaceId,
    api_version: '2026-11-20',
    data: row.data,
  });
}
