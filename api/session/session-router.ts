import Router from '@koa/router';
import type { ApiContext, ApiDeps } from '../context';
import { jsonBody } from '../middleware/json-body';
import { AppError } from '../../src/domain/errors';
import { problemsOf } from '../validate';
import type { SessionRouteDef } from './session-route-def';
import { sessionErrors, sessionGuard, type SessionState } from './session.middleware';

/** `{id}` (spec form) → `:id` (router form), as for the key API. */
const routerPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** 400 with every problem in the `error` string (session errors carry no code for validation). */
function validBody(route: SessionRouteDef, input: unknown): unknown {
  const result = route.body!.safeParse(input ?? {});
  if (result.success) return result.data;
  const problems = problemsOf(result.error.issues);
  throw new AppError(null, 400, problems.map((p) => (p.message.includes(p.field) ? p.message : `${p.field}: ${p.message}`)).join('; '), { problems });
}

/**
 * The session API under /api (DESIGN.md §10): cookie session, CSRF, frozen and role checks per
 * route, then the body validated by the route's zod schema, then the typed handler.
 */
export function sessionRouter(routes: SessionRouteDef[], deps: ApiDeps): Router<SessionState> {
  const router = new Router<SessionState>({ prefix: '/api' });
  for (const route of routes) {
    router.register(routerPath(route.path), [route.method], [
      sessionErrors(),
      sessionGuard(route, deps.db, deps.config),
      jsonBody(),
      async (ctx) => {
        // The validation message is the session API's `error` string (400, no code).
        const body = route.body ? validBody(route, ctx.state.body) : undefined;
        const reply = await route.handler({ ctx: ctx as unknown as ApiContext, deps, body, params: ctx.params, session: ctx.state.session! });
        ctx.status = reply.status ?? 200;
        ctx.set('Cache-Control', 'no-store');
        ctx.body = reply.body;
      },
    ]);
  }
  return router;
}
