import { verifyByGet, type VerifyResult } from './verification';

/**
 * People Data Labs (profile data). The cheapest authenticated call is the v5 autocomplete
 * endpoint with size 1; the key goes in the `X-Api-Key` header.
 */
export function verifyPeopleDataLabsKey(baseUrl: string, apiKey: string): Promise<VerifyResult> {
  return verifyByGet('peopledatalabs', `${baseUrl}/v5/autocomplete?field=title&text=engineer&size=1`, { 'X-Api-Key': apiKey, Accept: 'application/json' });
}
