import { verifyByGet, type VerifyResult } from './verification';

/** Hunter (contact data): `GET /v2/account` is free and needs a valid `api_key`. */
export function verifyHunterKey(baseUrl: string, apiKey: string): Promise<VerifyResult> {
  return verifyByGet('hunter', `${baseUrl}/v2/account?api_key=${encodeURIComponent(apiKey)}`, { Accept: 'application/json' });
}
