import { startVendorServer, tokens, type VendorServer } from './vendor-server';

/**
 * A local Brave Search API on 127.0.0.1: `GET /res/v1/web/search?q=&count=` with the key in
 * `X-Subscription-Token`, answering Brave's response shape (`type: "search"`, `web.results[]` with
 * `title`, `url`, `description` marked up with <strong>, `page_age`; no `web` when nothing matched).
 */
export const BRAVE_GOOD_KEY = 'brave-fake-good-key-01';

export const BRAVE_PAGES = [
  {
    title: 'Acme Robotics – Engineering blog',
    url: 'https://acmerobotics.example.com/blog',
    description: 'How Acme Robotics builds robots with TypeScript.',
    page_age: '2026-09-14T08:00:00',
  },
  {
    title: 'Acme Robotics raises Series B',
    url: 'https://news.example.org/acme-series-b',
    description: 'Acme Robotics raised $40M to grow its robotics team.',
    page_age: '2026-03-02T12:30:00',
  },
  { title: 'Northwind Data careers', url: 'https://northwind.example.com/careers', description: 'Join Northwind Data in Stockholm.' },
];

export type BraveFake = VendorServer;

export function startBraveFake(acceptedKey = BRAVE_GOOD_KEY): Promise<BraveFake> {
  return startVendorServer({
    errorBody: (status, message) => ({ type: 'ErrorResponse', error: { status, code: status === 429 ? 'RATE_LIMITED' : 'INTERNAL', detail: message } }),
    rejects: (req) =>
      req.headers['x-subscription-token'] === acceptedKey
        ? null
        : {
            status: 401,
            body: { type: 'ErrorResponse', error: { status: 401, code: 'SUBSCRIPTION_TOKEN_INVALID', detail: 'The provided subscription token is invalid.' } },
          },
    route(req) {
      if (req.method !== 'GET' || req.path !== '/res/v1/web/search')
        return { status: 404, body: { type: 'ErrorResponse', error: { status: 404, code: 'NOT_FOUND' } } };
      const q = req.query.get('q') ?? '';
      const count = Number(req.query.get('count') ?? 20);
      const words = tokens(q);
      const hits = BRAVE_PAGES.filter((p) => words.some((w) => tokens(`${p.title} ${p.description}`).includes(w))).slice(0, count);
      const mark = (text: string) => text.replace(new RegExp(`\\b(${words.join('|')})\\b`, 'gi'), '<strong>$1</strong>');
      return {
        status: 200,
        body: {
          type: 'search',
          query: { original: q, more_results_available: false },
          mixed: { type: 'mixed', main: [] },
          ...(hits.length
            ? { web: { type: 'search', family_friendly: true, results: hits.map((h) => ({ type: 'search_result', ...h, description: mark(h.description) })) } }
            : {}),
        },
      };
    },
  });
}
