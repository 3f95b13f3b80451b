import { verifyByGet, type VerifyResult } from './verification';

/** Brave Search API (web search): one result of a web search; the key is the `X-Subscription-Token` header. */
export function verifyBraveKey(baseUrl: string, apiKey: string): Promise<VerifyResult> {
  return verifyByGet('brave', `${baseUrl}/res/v1/web/search?q=test&count=1`, { 'X-Subscription-Token': apiKey, Accept: 'application/json' });
}
