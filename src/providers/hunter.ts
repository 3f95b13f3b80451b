import { z } from 'zod';
import type { ContactDataProvider } from './capabilities';
import type { VendorSettings } from './peopledatalabs';
import { verifyByGet, type VerifyResult } from './verification';
import { callVendor } from './vendor-http';

/** Hunter (contact data): `GET /v2/account` is free and needs a valid `api_key`. */
export function verifyHunterKey(baseUrl: string, apiKey: string): Promise<VerifyResult> {
  return verifyByGet('hunter', `${baseUrl}/v2/account?api_key=${encodeURIComponent(apiKey)}`, { Accept: 'application/json' });
}

// https://hunter.io/api-documentation/v2#email-finder: `data.email` is null when none was found.
const emailFinderAnswer = z.looseObject({
  data: z.looseObject({ email: z.string().nullable(), score: z.number().nullish(), position: z.string().nullish() }),
});

/** The Hunter adapter: the email finder (`GET /v2/email-finder`, key in the `api_key` query parameter). */
export function hunterProvider(s: Omit<VendorSettings, 'limiter'>): ContactDataProvider {
  return {
    source: 'hunter',
    async findEmail(lookup) {
      const params = new URLSearchParams({ first_name: lookup.first_name, last_name: lookup.last_name, api_key: s.apiKey });
      if (lookup.domain) params.set('domain', lookup.domain);
      else if (lookup.company) params.set('company', lookup.company);
      const answer = await callVendor({
        provider: 'hunter',
        method: 'GET',
        url: `${s.baseUrl}/v2/email-finder?${params}`,
        headers: {},
        schema: emailFinderAnswer,
        timeoutMs: s.timeoutMs,
        notFoundIsNull: true,
      });
      if (!answer?.data.email) return null;
      return { email: answer.data.email, score: answer.data.score ?? null, position: answer.data.position ?? null };
    },
  };
}
