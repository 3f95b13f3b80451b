import { z } from 'zod';
import { PROVIDER_IDS } from '../providers/provider-ids';

export const MIN_API_KEY_LENGTH = 8;

/** POST /api/admin/credentials */
export const createCredentialBody = z.strictObject({
  provider: z.enum(PROVIDER_IDS, { error: `provider must be one of ${PROVIDER_IDS.join(', ')}` }).describe('Provider identifier'),
  apiKey: z
    .string({ error: 'apiKey is required (a string)' })
    .min(MIN_API_KEY_LENGTH, `apiKey must have at least ${MIN_API_KEY_LENGTH} characters`)
    .max(4096)
    .describe('The provider key; stored encrypted, never returned'),
  label: z.string().trim().min(1).max(100).default('default').describe('Distinguishes several keys of one provider; default "default"'),
});
export type CreateCredentialBody = z.infer<typeof createCredentialBody>;
