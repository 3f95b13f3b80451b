import fs from 'node:fs';
import Router from '@koa/router';
import Koa from 'koa';
import { AppError } from '../src/domain/errors';
import type { ApiContext, ApiDeps, ApiState } from './context';
import type { ApiMetrics } from './metrics';
import { authenticate } from './middleware/authenticate';
import { errorHandler } from './middleware/errors';
import { jsonBody, readRawBody } from './middleware/json-body';
import { applyRateLimit, ipBucket } from './middleware/rate-limit';
import { requestId } from './middleware/request-id';
import { traceRequest } from './middleware/tracing';
import { countUsage } from './middleware/usage';
import type { RouteDef } from './route-def';
import { routeTable } from './route-table';
import { sessionRouter } from './session/session-router';
import { sessionRoutes } from './session/session.routes';
import { keyApiBridge } from './session/key-api-bridge';
import { sessionErrors } from './session/session.middleware';
import { serveBuiltApp } from './web/app.page';
import { dependencyChecks } from './routes/health.routes';
import { DOCS_PAGE_HEADERS, DOCS_SCRIPT_URL, renderDocsPage, SCALAR_BUNDLE_PATH } from './web/docs.page';
import { renderShareErrorPage, renderSharePage, SHARE_PAGE_HEADERS } from './web/share.page';
import { readShare } from '../src/shortlist/share.service';
import { handleStripeWebhook } from '../src/billing/stripe-webhook.service';
import { payTestCheckout, waitForGrant } from '../src/billing/top-up.service';
import { topUpRepository } from '../src/db/top-up.repository';
import { CHECKOUT_PAGE_HEADERS, renderCheckoutErrorPage, renderCheckoutPage, renderPaidPage } from './web/checkout.page';

/** `{projectId}` (spec form) → `:projectId` (router form). */
export const toRouterPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

function keyApiRouter(routes: readonly RouteDef[], deps: ApiDeps): Router<ApiState> {
  const router = new Router<ApiState>({ prefix: '/v1' });
  for (const route of routes) {
    // Authentication comes before any other work; bodies are read only for a matched route.
    router.register(
      toRouterPath(route.path),
      [route.method],
      [
        authenticate(route, deps),
        countUsage(route, deps),
        jsonBody(),
        async (ctx) => {
          await route.run(ctx, deps, routes);
        },
      ],
    );
  }
  return router;
}

export interface AppOptions {
  /** Counts every request; its registry is served as /metrics here unless `metricsOnOwnPort`. */
  metrics?: ApiMetrics;
  metricsOnOwnPort?: boolean;
  /** Serves the web app at /app; default: the built files (dist/app). `npm run dev` passes Vite's. */
  webApp?: Koa.Middleware<ApiState>;
}

/**
 * The middleware stack; order matters: metrics → request id → (tracing) → errors → routes (body,
 * handler) → 405 → 404.
 */
export function createApp(deps: ApiDeps, routes: readonly RouteDef[] = routeTable, opts: AppOptions = {}): Koa<ApiState> {
  const { metrics } = opts;
  const app = new Koa<ApiState>({ proxy: deps.config.trustProxy });
  app.silent = true; // errors are logged by errorHandler with the request id
  if (metrics) app.use(metrics.middleware);
  app.use(requestId(deps.logger));
  // Every answer (JSON, CSV, pages, the app, errors): browsers take its Content-Type as given.
  app.use((ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    return next();
  });
  if (deps.config.tracing.enabled) app.use(traceRequest());
  app.use(errorHandler());
  // Under /api every error takes the session API's shape, also those thrown by the routes defined
  // here (the share lookup during a database outage: 503 `{error, code}`). The session and bridge
  // routers shape their own errors the same way; the fallback below shapes its 404/405 itself.
  const sessionShaped = sessionErrors();
  app.use((ctx, next) => (isSessionApiPath(ctx.path) ? sessionShaped(ctx, next) : next()));

  const router = keyApiRouter(routes, deps);
  app.use(router.routes());
  const session = sessionRouter(sessionRoutes, deps);
  app.use(session.routes());
  // The key API's operations for the web app, behind the session (DESIGN.md §11).
  const bridge = keyApiBridge(routes, deps);
  app.use(bridge.routes());
  const web = new Router<ApiState>();
  // Probes for orchestrators, outside /v1, keyless and not rate limited: /livez does no I/O (the
  // process answers), /readyz says whether requests can be served now (database and Temporal).
  web.get('/livez', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { ok: true };
  });
  web.get('/readyz', async (ctx) => {
    const checks = await dependencyChecks(deps);
    const ok = checks.database === 'ok' && checks.temporal === 'ok';
    ctx.set('Cache-Control', 'no-store');
    ctx.status = ok ? 200 : 503;
    ctx.body = { ok, checks };
  });
  if (metrics && !opts.metricsOnOwnPort) {
    web.get('/metrics', async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.type = metrics.registry.contentType;
      ctx.body = await metrics.registry.metrics();
    });
  }
  web.get('/docs', (ctx) => {
    ctx.set(DOCS_PAGE_HEADERS);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = renderDocsPage(routes);
  });
  web.get(DOCS_SCRIPT_URL, (ctx) => {
    ctx.set({ 'Cache-Control': 'public, max-age=3600', 'X-Content-Type-Options': 'nosniff' });
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = fs.createReadStream(SCALAR_BUNDLE_PATH);
  });
  // Share links: the token is the credential (no key, no session); the page and JSON are live.
  web.get('/share/:token', async (ctx) => {
    ctx.set(SHARE_PAGE_HEADERS);
    ctx.set('X-Robots-Tag', 'noindex, nofollow');
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/html; charset=utf-8';
    const found = await readShare(deps.db, ctx.params.token);
    if (found.status === 'ok') ctx.body = renderSharePage(found.share);
    else {
      ctx.status = found.status === 'expired' ? 410 : 404;
      ctx.body = renderShareErrorPage(ctx.status as 404 | 410);
    }
  });
  // Session-API shape: errors are a human-readable string (spec "Session API errors").
  web.get('/api/shares/:token', async (ctx) => {
    ctx.set({ 'Referrer-Policy': 'no-referrer', 'X-Robots-Tag': 'noindex, nofollow', 'Cache-Control': 'no-store' });
    const found = await readShare(deps.db, ctx.params.token);
    if (found.status === 'ok') ctx.body = found.share;
    else if (found.status === 'expired') {
      ctx.status = 410;
      ctx.body = { error: 'This share link has expired' };
    } else {
      ctx.status = 404;
      ctx.body = { error: 'Share link not found' };
    }
  });
  // The test provider's checkout (DESIGN.md §8): the token is the credential, as for share links.
  web.get('/checkout/:token', async (ctx) => {
    ctx.set(CHECKOUT_PAGE_HEADERS);
    ctx.type = 'text/html; charset=utf-8';
    const topUp = await topUpRepository(deps.db).findByToken(ctx.params.token);
    const expired = topUp && topUp.status !== 'paid' && (topUp.status === 'expired' || topUp.expires_at.getTime() <= Date.now());
    if (!topUp || expired) {
      ctx.status = topUp ? 410 : 404;
      ctx.body = renderCheckoutErrorPage(ctx.status as 404 | 410);
      return;
    }
    ctx.body = renderCheckoutPage(topUp, ctx.params.token);
  });
  web.post('/checkout/:token/pay', async (ctx) => {
    ctx.set(CHECKOUT_PAGE_HEADERS);
    ctx.type = 'text/html; charset=utf-8';
    const { outcome, topUp } = await payTestCheckout({ db: deps.db, temporal: deps.temporal, logger: ctx.state.log }, ctx.params.token);
    if (outcome === 'paid') ctx.body = renderPaidPage(await waitForGrant(deps.db, topUp!.id), false);
    else if (outcome === 'already_paid') ctx.body = renderPaidPage(topUp!, true);
    else {
      ctx.status = outcome === 'expired' ? 410 : 404;
      ctx.body = renderCheckoutErrorPage(ctx.status as 404 | 410);
    }
  });
  // Stripe's webhook: verified over the raw bytes, so no JSON body parser runs before it.
  web.post('/api/billing/stripe-webhook', async (ctx) => {
    const raw = await readRawBody(ctx.req);
    const answer = await handleStripeWebhook(
      { db: deps.db, temporal: deps.temporal, logger: ctx.state.log, config: deps.config },
      raw,
      ctx.get('Stripe-Signature') || undefined,
    );
    ctx.set('Cache-Control', 'no-store');
    ctx.status = answer.status;
    ctx.body = answer.body;
  });
  app.use(web.routes());
  app.use(opts.webApp ?? serveBuiltApp());
  app.use(async (ctx) => {
    // Reached only when no route answered: 405 when the path exists under another method.
    await applyRateLimit(ctx as unknown as ApiContext, deps.db, [ipBucket(ctx, deps.config.unauthenticatedRateLimit)]);
    const sessionApi = isSessionApiPath(ctx.path);
    const layers = sessionApi
      ? [...session.match(ctx.path, ctx.method).path, ...bridge.match(ctx.path, ctx.method).path]
      : router.match(ctx.path, ctx.method).path;
    // A literal path beats a template that also matches it (`/data/people/search` is not a profile id).
    const fewestParams = Math.min(...layers.map((layer) => layer.paramNames.length));
    const allowed = [...new Set(layers.filter((layer) => layer.paramNames.length === fewestParams).flatMap((layer) => layer.methods))];
    const refusal =
      allowed.length > 0
        ? new AppError('method_not_allowed', 405, `${ctx.method} is not allowed on ${ctx.path}; use ${allowed.join(' or ')}`, null, {
            Allow: allowed.join(', '),
          })
        : new AppError('not_found', 404, `No route for ${ctx.method} ${ctx.path}`);
    if (!sessionApi) throw refusal;
    // Under /api the session API's shape (spec "Session API errors"): `{error}` alone.
    ctx.set(refusal.headers);
    ctx.status = refusal.status;
    ctx.body = { error: refusal.message };
  });
  return app;
}

const isSessionApiPath = (path: string) => path === '/api' || path.startsWith('/api/');
