import fs from 'node:fs';
import { handleStripeWebhook } from '../src/billing/stripe-webhook.service';
import { payTestCheckout, waitForGrant } from '../src/billing/top-up.service';
import { topUpRepository } from '../src/db/top-up.repository';
import { readShare } from '../src/shortlist/share.service';
import { dependencyChecks } from './dependency-checks';
import { readRawBody } from './middleware/json-body';
import type { ApiMetrics } from './metrics';
import { HTML_PAGE, type WebRoute } from './web-route-def';
import { CHECKOUT_PAGE_HEADERS, renderCheckoutErrorPage, renderCheckoutPage, renderPaidPage } from './web/checkout.page';
import { DOCS_PAGE_HEADERS, DOCS_SCRIPT_URL, renderDocsPage, SCALAR_BUNDLE_PATH } from './web/docs.page';
import { renderShareErrorPage, renderSharePage, SHARE_PAGE_HEADERS } from './web/share.page';

const NO_STORE = { 'Cache-Control': 'no-store' };

/** /metrics on the API's own port: the registry's text, never cached. */
const metricsRoute = (metrics: ApiMetrics): WebRoute => ({
  name: 'metrics',
  method: 'GET',
  path: '/metrics',
  headers: NO_STORE,
  type: metrics.registry.contentType,
  handler: async () => ({ body: await metrics.registry.metrics() }),
});

/**
 * Every web route (web-route-def.ts), in registration order. `metrics`: the registry to serve as
 * /metrics on this port (absent when metrics are off or have a port of their own).
 */
export function webRoutes(opts: { metrics?: ApiMetrics } = {}): WebRoute[] {
  return [
    // Probes for orchestrators, outside /v1, keyless and not rate limited: /livez does no I/O (the
    // process answers), /readyz says whether requests can be served now (database and Temporal).
    { name: 'livez', method: 'GET', path: '/livez', headers: NO_STORE, handler: () => ({ body: { ok: true } }) },
    {
      name: 'readyz',
      method: 'GET',
      path: '/readyz',
      async handler(_ctx, { deps }) {
        const checks = await dependencyChecks(deps);
        const ok = checks.database === 'ok' && checks.temporal === 'ok';
        return { headers: NO_STORE, status: ok ? 200 : 503, body: { ok, checks } };
      },
    },
    ...(opts.metrics ? [metricsRoute(opts.metrics)] : []),
    {
      name: 'docs_page',
      method: 'GET',
      path: '/docs',
      headers: DOCS_PAGE_HEADERS,
      type: HTML_PAGE,
      handler: (_ctx, { routes }) => ({ body: renderDocsPage(routes) }),
    },
    {
      name: 'docs_script',
      method: 'GET',
      path: DOCS_SCRIPT_URL,
      headers: { 'Cache-Control': 'public, max-age=3600', 'X-Content-Type-Options': 'nosniff' },
      type: 'text/javascript; charset=utf-8',
      handler: () => ({ body: fs.createReadStream(SCALAR_BUNDLE_PATH) }),
    },
    // Share links: the token is the credential (no key, no session); the page and JSON are live.
    {
      name: 'share_page',
      method: 'GET',
      path: '/share/{token}',
      headers: { ...SHARE_PAGE_HEADERS, 'X-Robots-Tag': 'noindex, nofollow', ...NO_STORE },
      type: HTML_PAGE,
      async handler(ctx, { deps }) {
        const found = await readShare(deps.db, ctx.params.token);
        if (found.status === 'ok') return { body: renderSharePage(found.share) };
        const status = found.status === 'expired' ? 410 : 404;
        return { status, body: renderShareErrorPage(status) };
      },
    },
    // Session-API shape: errors are a human-readable string (spec "Session API errors").
    {
      name: 'get_share',
      method: 'GET',
      path: '/api/shares/{token}',
      headers: { 'Referrer-Policy': 'no-referrer', 'X-Robots-Tag': 'noindex, nofollow', ...NO_STORE },
      async handler(ctx, { deps }) {
        const found = await readShare(deps.db, ctx.params.token);
        if (found.status === 'ok') return { body: found.share };
        if (found.status === 'expired') return { status: 410, body: { error: 'This share link has expired' } };
        return { status: 404, body: { error: 'Share link not found' } };
      },
    },
    // The test provider's checkout (DESIGN.md §8): the token is the credential, as for share links.
    {
      name: 'checkout_page',
      method: 'GET',
      path: '/checkout/{token}',
      headers: CHECKOUT_PAGE_HEADERS,
      type: HTML_PAGE,
      async handler(ctx, { deps }) {
        const topUp = await topUpRepository(deps.db).findByToken(ctx.params.token);
        const expired = topUp && topUp.status !== 'paid' && (topUp.status === 'expired' || topUp.expires_at.getTime() <= Date.now());
        if (!topUp || expired) {
          const status = topUp ? 410 : 404;
          return { status, body: renderCheckoutErrorPage(status) };
        }
        return { body: renderCheckoutPage(topUp, ctx.params.token) };
      },
    },
    {
      name: 'pay_test_checkout',
      method: 'POST',
      path: '/checkout/{token}/pay',
      headers: CHECKOUT_PAGE_HEADERS,
      type: HTML_PAGE,
      async handler(ctx, { deps }) {
        const { outcome, topUp } = await payTestCheckout({ db: deps.db, temporal: deps.temporal, logger: ctx.state.log }, ctx.params.token);
        if (outcome === 'paid') return { body: renderPaidPage(await waitForGrant(deps.db, topUp!.id), false) };
        if (outcome === 'already_paid') return { body: renderPaidPage(topUp!, true) };
        const status = outcome === 'expired' ? 410 : 404;
        return { status, body: renderCheckoutErrorPage(status) };
      },
    },
    // Stripe's webhook: verified over the raw bytes, so no JSON body parser runs before it.
    {
      name: 'stripe_webhook',
      method: 'POST',
      path: '/api/billing/stripe-webhook',
      async handler(ctx, { deps }) {
        const raw = await readRawBody(ctx.req);
        const answer = await handleStripeWebhook(
          { db: deps.db, temporal: deps.temporal, logger: ctx.state.log, config: deps.config },
          raw,
          ctx.get('Stripe-Signature') || undefined,
        );
        return { headers: NO_STORE, status: answer.status, body: answer.body };
      },
    },
  ];
}
