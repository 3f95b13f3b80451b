import { createHash, randomBytes } from 'node:crypto';

export const KEY_ENVIRONMENTS = ['live', 'test'] as const;
export const FUNDING_MODES = ['workspace', 'contract_pool'] as const;
export type KeyEnvironment = (typeof KEY_ENVIRONMENTS)[number];
export type FundingMode = (typeof FUNDING_MODES)[number];

export const DEFAULT_KEY_RATE_LIMIT = 120;

/** Only the hash is stored; the raw key is shown once. */
export const hashApiKey = (raw: string) => createHash('sha256').update(raw, 'utf8').digest('hex');

/** `sk_<env>_<random>` with 256 bits of randomness (base62, so it survives copy and paste). */
export function generateApiKey(environment: KeyEnvironment): { raw: string; hash: string; hint: string } {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let random = '';
  while (random.length < 43) {
    for (const byte of randomBytes(48)) {
      if (byte < 248 && random.length < 43) random += alphabet[byte % 62]; // 248 = 4 × 62: no modulo bias
    }
  }
  const raw = `sk_${environment}_${random}`;
  return { raw, hash: hashApiKey(raw), hint: `sk_${environment}_…${random.slice(-4)}` };
}
