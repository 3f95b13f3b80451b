import { z } from 'zod';
import type { WebSearchProvider } from './capabilities';
import type { VendorSettings } from './peopledatalabs';
import { verifyByGet, type VerifyResult } from './verification';
import { callVendor } from './vendor-http';

/** Brave Search API (web search): one result of a web search; the key is the `X-Subscription-Token` header. */
export function verifyBraveKey(baseUrl: string, apiKey: string): Promise<VerifyResult> {
  return verifyByGet('brave', `${baseUrl}/res/v1/web/search?q=test&count=1`, { 'X-Subscription-Token': apiKey, Accept: 'application/json' });
}

// https://api-dashboard.search.brave.com/app/documentation/web-search/responses: `web` is absent
// when nothing matched; `page_age` is the page's date (ISO, no zone), `age` a human phrase.
const braveAnswer = z.looseObject({
  type: z.literal('search'),
  web: z
    .looseObject({
      results: z.array(z.looseObject({ title: z.string(), url: z.string(), description: z.string().nullish(), page_age: z.string().nullish() })),
    })
    .nullish(),
});

/** Brave marks query terms with <strong>; snippets are plain text. */
const plain = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

function isoDate(pageAge: string | null | undefined): string | null {
  if (!pageAge) return null;
  const at = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(pageAge) ? pageAge : `${pageAge}Z`);
  return Number.isFinite(at) ? new Date(at).toISOString() : null;
}

/** The Brave adapter: `GET /res/v1/web/search`, paced by the shared QPS limit. */
export function braveProvider(s: VendorSettings): WebSearchProvider {
  return {
    source: 'brave',
    async search(query, count) {
      const url = `${s.baseUrl}/res/v1/web/search?q=${encodeURIComponent(query)}&count=${count}`;
      const answer = await s.limiter.paced('brave', () =>
        callVendor({ provider: 'brave', method: 'GET', url, headers: { 'X-Subscription-Token': s.apiKey }, schema: braveAnswer, timeoutMs: s.timeoutMs }),
      );
      return (answer?.web?.results ?? []).slice(0, count).map((r) => ({
        title: plain(r.title),
        url: r.url,
        snippet: plain(r.description ?? ''),
        published_at: isoDate(r.page_age),
      }));
    },
  };
}
