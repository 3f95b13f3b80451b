import { randomBytes } from 'node:crypto';
import { decryptSecret, encryptSecret, newWebhookSecret, secretLast4 } from '../../src/webhooks/secrets';

const key = randomBytes(32);

describe('webhook secrets at rest', () => {
  it('round-trip through AES-256-GCM and never store the secret in clear', () => {
    const secret = newWebhookSecret();
    const stored = encryptSecret(key, secret, 'endpoint-1');
    expect(stored).toMatch(/^v1\./);
    expect(stored).not.toContain(secret.slice(6));
    expect(decryptSecret(key, stored, 'endpoint-1')).toBe(secret);
    expect(encryptSecret(key, secret, 'endpoint-1')).not.toBe(stored); // fresh IV each time
    expect(secretLast4(secret)).toBe(secret.slice(-4));
  });

  it('refuse another key, another endpoint (associated data) and a tampered ciphertext', () => {
    const stored = encryptSecret(key, newWebhookSecret(), 'endpoint-1');
    expect(() => decryptSecret(randomBytes(32), stored, 'endpoint-1')).toThrow();
    expect(() => decryptSecret(key, stored, 'endpoint-2')).toThrow();
    const parts = stored.split('.');
    const flipped = Buffer.from(parts[3], 'base64url');
    flipped[0] ^= 1;
    expect(() => decryptSecret(key, [...parts.slice(0, 3), flipped.toString('base64url')].join('.'), 'endpoint-1')).toThrow();
    expect(() => decryptSecret(key, 'plain-text', 'endpoint-1')).toThrow(/unrecognised/);
  });
});
