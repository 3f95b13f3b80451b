import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { verifyWebhookSignature } from '../../sdk/src';
import { deliveryHeaders, envelopeBody, WEBHOOK_USER_AGENT } from '../../src/webhooks/delivery';
import { newWebhookSecret } from '../../src/webhooks/secrets';
import { signatureHeader } from '../../src/webhooks/signing';

const stripe = new Stripe('sk_test_not_used');
const secret = newWebhookSecret();
const now = () => Math.floor(Date.now() / 1000);
const body = envelopeBody({
  id: 'evt_0123456789abcdef0123456789abcdef',
  workspace_id: '6f1c1b7e-9c1a-4a51-8d1e-2f8a4b9c0d11',
  type: 'search.completed',
  data: { search_id: 's', outcome: 'Poor yield' },
  created_at: new Date('2026-11-21T10:00:00Z'),
});

describe('webhook signatures', () => {
  it('are t=<unix>,v1=<hex HMAC-SHA256 of "t.body"> keyed by the whole whsec_ secret', () => {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const header = signatureHeader(body, secret, 1_700_000_000);
    const expected = createHmac('sha256', secret).update(`1700000000.${body}`).digest('hex');
    expect(header).toBe(`t=1700000000,v1=${expected}`);
  });

  it('verify the raw body, refuse a tampered body, another secret, a stale or future timestamp', () => {
    const header = signatureHeader(body, secret);
    expect(verifyWebhookSignature(body, header, secret)).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(body), header, secret)).toBe(true);
    expect(verifyWebhookSignature(body.replace('Poor yield', 'Shortlist ready'), header, secret)).toBe(false);
    expect(verifyWebhookSignature(body, header, newWebhookSecret())).toBe(false);
    expect(verifyWebhookSignature(body, header, secret.slice('whsec_'.length))).toBe(false); // the prefix is part of the key
    expect(verifyWebhookSignature(body, signatureHeader(body, secret, now() - 301), secret)).toBe(false);
    expect(verifyWebhookSignature(body, signatureHeader(body, secret, now() + 301), secret)).toBe(false);
    expect(verifyWebhookSignature(body, signatureHeader(body, secret, now() - 290), secret)).toBe(true);
    expect(verifyWebhookSignature(body, signatureHeader(body, secret, now() - 100), secret, { toleranceSeconds: 60 })).toBe(false);
  });

  it('refuse malformed headers and accept any matching v1 among several', () => {
    const good = signatureHeader(body, secret).split(',')[1];
    for (const bad of [undefined, '', 'garbage', `t=${now()}`, `v1=${good.slice(3)}`, `t=abc,${good}`, `t=${now()},v1=zz`, `t=${now()},v1=`]) {
      expect(verifyWebhookSignature(body, bad, secret)).toBe(false);
    }
    const header = signatureHeader(body, secret);
    const [t, v1] = header.split(',');
    expect(verifyWebhookSignature(body, `${t},v1=${'0'.repeat(64)},${v1}`, secret)).toBe(true);
  });

  it("are accepted by Stripe's verifier (same scheme), which also refuses tampering and stale timestamps", () => {
    const header = signatureHeader(body, secret);
    expect(stripe.webhooks.constructEvent(body, header, secret)).toMatchObject({ id: 'evt_0123456789abcdef0123456789abcdef', type: 'search.completed' });
    expect(() => stripe.webhooks.constructEvent(body.replace('Poor', 'Rich'), header, secret)).toThrow(/signature/i);
    expect(() => stripe.webhooks.constructEvent(body, signatureHeader(body, secret, now() - 600), secret)).toThrow(/tolerance|timestamp/i);
    // …and ours accepts Stripe's own test headers.
    const stripeHeader = stripe.webhooks.generateTestHeaderString({ payload: body, secret });
    expect(verifyWebhookSignature(body, stripeHeader, secret)).toBe(true);
  });

  it('delivery headers carry the signature, event id and type, user agent and content type', () => {
    const headers = deliveryHeaders(body, secret, { id: 'evt_1', type: 'search.completed' });
    expect(headers).toMatchObject({
      'Content-Type': 'application/json',
      'User-Agent': WEBHOOK_USER_AGENT,
      'Service-Event-Id': 'evt_1',
      'Service-Event-Type': 'search.completed',
    });
    expect(WEBHOOK_USER_AGENT).toBe('Service-Webhooks/1');
    expect(verifyWebhookSignature(body, headers['Service-Signature'], secret)).toBe(true);
    expect(JSON.parse(body)).toEqual({
      id: 'evt_0123456789abcdef0123456789abcdef',
      type: 'search.completed',
      created_at: '2026-11-21T10:00:00.000Z',
      workspace_id: '6f1c1b7e-9c1a-4a51-8d1e-2f8a4b9c0d11',
      api_version: '2026-11-20',
      data: { search_id: 's', outcome: 'Poor yield' },
    });
  });
});
