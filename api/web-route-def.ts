import Router from '@koa/router';
import type { ApiContext, ApiDeps, ApiState } from './context';
import { toRouterPath, type RouteDef } from './route-def';

/** The content type of a server-rendered page (api/web/*.page.ts). */
export const HTML_PAGE = 'text/html; charset=utf-8';

/** What a web route's handler may use besides the request. */
export interface WebEnv {
  deps: ApiDeps;
  /** The key API's route table (the docs page lists it). */
  routes: readonly RouteDef[];
}

/** A web route's answer: its body, a status other than 200, headers that belong to this answer only. */
export interface WebAnswer {
  status?: number;
  headers?: Record<string, string>;
  body: unknown;
}

/**
 * A route of the API process outside the key API (/v1) and the session API's table: probes,
 * metrics, the API reference, the pages a link opens (share, checkout) and the payment provider's
 * webhook. None of them takes a key or a session, is in /actions or in an OpenAPI document, or
 * answers the `{data, meta}` envelope, so they are not key-API routes (route-def.ts); a path
 * credential is a `{token}`, which logs and traces never show (context.ts).
 */
export interface WebRoute {
  /** snake_case, as the other tables name their routes. */
  name: string;
  method: 'GET' | 'POST';
  /** The whole path, with `{token}`-style placeholders. */
  path: string;
  /** Set before the handler runs, so they hold for its error answers too (a page's security headers). */
  headers?: Record<string, string>;
  /** Content-Type of the answer (e.g. HTML_PAGE), also set before the handler runs. */
  type?: string;
  handler: (ctx: ApiContext, env: WebEnv) => WebAnswer | Promise<WebAnswer>;
}

/** The router of the web routes, in table order. */
export function webRouter(routes: readonly WebRoute[], env: WebEnv): Router<ApiState> {
  const router = new Router<ApiState>();
  for (const route of routes) {
    router.register(
      toRouterPath(route.path),
      [route.method],
      [
        async (ctx) => {
          if (route.headers) ctx.set(route.headers);
          if (route.type) ctx.type = route.type;
          const answer = await route.handler(ctx, env);
          if (answer.headers) ctx.set(answer.headers);
          if (answer.status !== undefined) ctx.status = answer.status;
          ctx.body = answer.body;
        },
      ],
    );
  }
  return router;
}
