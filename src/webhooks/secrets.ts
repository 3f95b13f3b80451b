import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Signing secrets: `whsec_` + 32 random bytes; stored only as AES-256-GCM ciphertext under SECRETS_KEY. */

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

/** Throws when the key, the context or the ciphertext is wrong (GCM authentication). */
export function decryptSecret(key: Buffer, stored: string, context: string): string {
  const [version, iv, tag, ciphertext] = stored.split('.');
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error('unrecognised secret ciphertext');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}
