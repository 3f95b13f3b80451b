import { z } from 'zod';
import { whenMissing } from '../domain/errors';
import { trimmedText } from '../domain/text';
import { PROVIDER_IDS } from '../providers/provider-ids';

export const MIN_API_KEY_LENGTH = 8;

/** POST /api/admin/credentials */
export const createCredentialBody = z.strictObject({
  provider: z.enum(PROVIDER_IDS, { error: `provider must be one of ${PROVIDER_IDS.join(', ')}` }).describe('Provider identifier'),
  apiKey: z
    .string({ error: whenMissing('apiKey is required (a string)') })
    .min(MIN_API_KEY_LENGTH, `apiKey must have at least ${MIN_API_KEY_LENGTH} characters`)
    .max(4096, 'apiKey is too long: at most 4,096 characters')
    // Keys travel in HTTP headers: printable ASCII, no spaces (vendors' keys are).
    .regex(/^[\x21-\x7e]+$/, 'apiKey must be printable ASCII without spaces')
    .describe('The provider key; stored encrypted, never returned'),
  label: trimmedText(100).default('default').describe('Distinguishes several keys of one provider; default "default"'),
});
export type CreateCredentialBody = z.infer<typeof createCredentialBody>;

// ---- responses ----

export const credential = z
  .strictObject({
    id: z.uuid(),
    provider: z.enum(PROVIDER_IDS),
    label: z.string(),
    key_hint: z.string().describe('First 4 and last 4 characters of the key around …'),
    is_active: z.boolean(),
    verified_at: z.iso.datetime().nullable(),
    verify_error: z.string().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'Credential', description: 'A provider credential; the key itself is never returned' });

export const credentialParams = z.object({ id: z.uuid().describe('Credential id') });
export const credentialList = z.strictObject({ credentials: z.array(credential).describe('Active credentials only') });
export const credentialSaved = z.strictObject({ ok: z.literal(true), credential });
export const credentialVerified = z.strictObject({ ok: z.boolean().describe('false when the provider refused the key (see verify_error)'), credential });
