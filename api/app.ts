import Router from '@koa/router';
import Koa from 'koa';
import { AppError } from '../src/domain/errors';
import type { ApiContext, ApiDeps, ApiState } from './context';
import type { ApiMetrics } from './metrics';
import { authenticate } from './middleware/authenticate';
import { errorHandler } from './middleware/errors';
import { jsonBody } from './middleware/json-body';
import { applyRateLimit, ipBucket } from './middleware/rate-limit';
import { requestId } from './middleware/request-id';
import { traceRequest } from './middleware/tracing';
import { countUsage } from './middleware/usage';
import { toRouterPath, type RouteDef } from './route-def';
import { routeTable } from './route-table';
import { keyApiBridge } from './session/key-api-bridge';
import { sessionRouter } from './session/session-router';
import { sessionErrors } from './session/session.middleware';
import { sessionRoutes } from './session/session.routes';
import { webRouter } from './web-route-def';
import { webRoutes } from './web-routes';
import { serveBuiltApp } from './web/app.page';

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
  // Under /api every error takes the session API's shape, also those thrown by the web routes
  // there (the share lookup during a database outage: 503 `{error, code}`). The session and bridge
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
  // Probes, metrics, the docs, the pages opened from links and the Stripe webhook (web-routes.ts).
  app.use(webRouter(webRoutes({ metrics: opts.metricsOnOwnPort ? undefined : metrics }), { deps, routes }).routes());
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
