import { startVendorServer, type VendorServer } from './vendor-server';

/**
 * A local Hunter API (v2) on 127.0.0.1, key in the `api_key` query parameter: `GET /v2/account`
 * (free; the key check) and `GET /v2/email-finder?domain|company&first_name&last_name` answering
 * `{data: {email, score, position, …}, meta}` (`email: null` when none was found).
 */
export const HUNTER_GOOD_KEY = 'hunter-fake-good-key-01';

const KNOWN: Record<string, { email: string; score: number; position: string }> = {
  'ada quinn acmerobotics.com': { email: 'ada.quinn@acmerobotics.com', score: 94, position: 'Senior Backend Engineer' },
};

export type HunterFake = VendorServer;

export function startHunterFake(acceptedKey = HUNTER_GOOD_KEY): Promise<HunterFake> {
  const error = (status: number, id: string, details: string) => ({ status, body: { errors: [{ id, code: status, details }] } });
  return startVendorServer({
    errorBody: (status, message) => ({ errors: [{ id: status === 429 ? 'too_many_requests' : 'internal_error', code: status, details: message }] }),
    rejects: (req) => (req.query.get('api_key') === acceptedKey ? null : error(401, 'authentication_failed', 'No user found for the API key supplied')),
    route(req) {
      if (req.path === '/v2/account')
        return { status: 200, body: { data: { email: 'owner@example.com', plan_name: 'Free', requests: { searches: { used: 0, available: 25 } } } } };
      if (req.path !== '/v2/email-finder') return error(404, 'not_found', 'Route not found');
      const first = req.query.get('first_name');
      const last = req.query.get('last_name');
      const domain = req.query.get('domain') ?? req.query.get('company');
      if (!first || !last || !domain) return error(400, 'wrong_params', 'You are missing the domain, first_name or last_name parameter');
      const hit = KNOWN[`${first} ${last} ${domain}`.toLowerCase()];
      return {
        status: 200,
        body: {
          data: {
            first_name: first,
            last_name: last,
            email: hit?.email ?? null,
            score: hit?.score ?? null,
            domain,
            position: hit?.position ?? null,
            sources: [],
          },
          meta: { params: { first_name: first, last_name: last, domain } },
        },
      };
    },
  });
}
