import Router from '@koa/router';
import type { ApiDeps } from '../context';
import { jsonBody } from '../middleware/json-body';
import { toRouterPath } from '../route-def';
import type { SessionRouteDef } from './session-route-def';
import { sessionErrors, sessionGuard, type SessionState } from './session.middleware';

/**
 * The session API under /api (DESIGN.md §10): cookie session, CSRF, frozen and role checks per
 * route (a refused request never reaches the body parser), then the route's schemas
 * (defineSessionRoute) and its typed handler.
 */
export function sessionRouter(routes: readonly SessionRouteDef[], deps: ApiDeps): Router<SessionState> {
  const router = new Router<SessionState>({ prefix: '/api' });
  for (const route of routes) {
    router.register(
      toRouterPath(route.path),
      [route.method],
      [
        sessionErrors(),
        sessionGuard(route, deps.db, deps.config),
        jsonBody(),
        async (ctx) => {
          // Public routes (sign-in, the document) have no session; their handlers do not read it.
          await route.run(ctx, deps, ctx.state.session!);
        },
      ],
    );
  }
  return router;
}
