import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../src/config';
import { creditsFor } from '../../src/billing/top-up.service';
import { currentMonth } from '../../src/usage/usage.service';

const base = { DATABASE_URL: 'postgres://u@localhost/db', SECRETS_KEY: randomBytes(32).toString('base64') };

describe('billing configuration', () => {
  it('defaults to the test provider, a 24 h top-up expiry and usage counting flushed every 5 s', () => {
    const config = loadConfig(base);
    expect(config.payments).toEqual({
      provider: 'test',
      topUpExpirySeconds: 24 * 60 * 60,
      stripe: { secretKey: undefined, webhookSecret: undefined, apiBase: 'https://api.stripe.com' },
    });
    expect(config.usage).toEqual({ counting: true, flushIntervalMs: 5000 });
  });

  it('refuses PAYMENTS_PROVIDER=stripe without its key and webhook secret, naming both', () => {
    expect(() => loadConfig({ ...base, PAYMENTS_PROVIDER: 'stripe' })).toThrow(/STRIPE_SECRET_KEY is required[\s\S]*STRIPE_WEBHOOK_SECRET is required/);
    expect(() => loadConfig({ ...base, PAYMENTS_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'pk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' })).toThrow(
      /STRIPE_SECRET_KEY must be a Stripe secret key/,
    );
    expect(
      loadConfig({
        ...base,
        PAYMENTS_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_1',
        STRIPE_WEBHOOK_SECRET: 'whsec_1',
        STRIPE_API_BASE: 'http://127.0.0.1:12111/',
      }).payments.stripe.apiBase,
    ).toBe('http://127.0.0.1:12111');
  });
});

describe('creditsFor', () => {
  it.each([
    [50, 4, 12],
    [10, 4, 2],
    [100.99, 3, 33],
    [0.3 * 3 * 100, 3, 30], // 90.00000000000001 in floating point: whole cents decide
    [10_000, 2, 5000],
  ])('%s USD at %s per credit buys %s credits', (amount, rate, credits) => {
    expect(creditsFor(amount, rate)).toBe(credits);
  });
});

it('the default usage period is the current UTC month', () => {
  expect(currentMonth(new Date('2026-12-31T23:59:59Z'))).toEqual({ from: new Date('2026-12-01T00:00:00Z'), to: new Date('2027-01-01T00:00:00Z') });
});
