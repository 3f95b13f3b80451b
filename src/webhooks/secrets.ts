import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * The one module for secrets at rest (webhook signing secrets, provider credentials): AES-256-GCM
 * under SECRETS_KEY. After a rotation SECRETS_KEY_PREVIOUS still decrypts until
 * `secrets reencrypt` has moved every row to the current key.
 */

export const SECRET_PREFIX = 'whsec_';
const VERSION = 'v1';

export const newWebhookSecret = (): string => `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;

export const secretLast4 = (secret: string): string => secret.slice(-4);

/**
 * `v1.<iv>.<tag>.<ciphertext>` (base64url). `context` (the endpoint id) is bound as associated
 * data, so a ciphertext copied onto another row does not decrypt.
 */
export function encryptSecret(key: Buffer, secret: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

/**
 * Throws when the key, the context or the ciphertext is wrong (GCM authentication). `previous`
 * (SECRETS_KEY_PREVIOUS) is tried when the current key does not authenticate.
 */
export function decryptSecret(key: Buffer, stored: string, context: string, previous?: Buffer | null): string {
  try {
    return decryptUnder(key, stored, context);
  } catch (err) {
    if (!previous) throw err;
    return decryptUnder(previous, stored, context);
  }
}

/**
 * The ciphertext moved to `key`, or null when it is already under `key` (nothing to write).
 * Throws when neither key decrypts it.
 */
export function reencryptSecret(key: Buffer, stored: string, context: string, previous: Buffer | null): string | null {
  try {
    decryptUnder(key, stored, context);
    return null;
  } catch {
    if (!previous) throw new Error('the secret does not decrypt under SECRETS_KEY and SECRETS_KEY_PREVIOUS is not set');
    return encryptSecret(key, decryptUnder(previous, stored, context), context);
  }
}

function decryptUnder(key: Buffer, stored: string, context: string): string {
  const [version, iv, tag, ciphertext] = stored.split('.');
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error('unrecognised secret ciphertext');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}
