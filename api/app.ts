import Router from '@koa/router';
import Koa from 'koa';
import { AppError } from '../src/domain/errors';
import type { ApiContext, ApiDeps, ApiState } from './context';
import { errorHandler } from './middleware/errors';
import { jsonBody } from './middleware/json-body';
import { requestId } from './middleware/request-id';
import type { RouteDef } from './route-def';
import { routeTable } from './route-table';

/** `{projectId}` (spec form) → `:projectId` (router form). */
export const toRouterPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

function keyApiRouter(routes: RouteDef[], deps: ApiDeps): Router<ApiState> {
  const router = new Router<ApiState>({ prefix: '/v1' });
  for (const route of routes) {
    // Bodies are read only for a matched route, so an unknown path is a 404 whatever it carries.
    router.register(toRouterPath(route.path), [route.method], [
      jsonBody(),
      async (ctx) => {
        await route.handler(ctx as unknown as ApiContext, deps);
      },
    ]);
  }
  return router;
}

/** The middleware stack; order matters: request id → errors → routes (body, handler) → 405 → 404. */
export function createApp(deps: ApiDeps, routes: RouteDef[] = routeTable): Koa<ApiState> {
  const app = new Koa<ApiState>({ proxy: true });
  app.silent = true; // errors are logged by errorHandler with the request id
  app.use(requestId(deps.logger));
  app.use(errorHandler());

  const router = keyApiRouter(routes, deps);
  app.use(router.routes());
  app.use(async (ctx) => {
    // Reached only when no route answered: 405 when the path exists under another method.
    const allowed = router.match(ctx.path, ctx.method).path.flatMap((layer) => layer.methods);
    if (allowed.length > 0) {
      ctx.set('Allow', [...new Set(allowed)].join(', '));
      throw new AppError('method_not_allowed', 405, `${ctx.method} is not allowed on ${ctx.path}; use ${[...new Set(allowed)].join(' or ')}`);
    }
    throw new AppError('not_found', 404, `No route for ${ctx.method} ${ctx.path}`);
  });
  return app;
}
