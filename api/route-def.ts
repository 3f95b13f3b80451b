import type { ZodType } from 'zod';
import type { ApiContext, ApiDeps } from './context';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * Who may call a route: `none` needs no key, `any` needs any valid key, otherwise the one scope
 * the key must hold.
 */
export type RouteAuth = 'none' | 'any' | string;

/**
 * One key-API operation. The same table registers the router, feeds `GET /actions` and generates
 * the OpenAPI document, so the three can never drift apart.
 */
export interface RouteDef {
  /** snake_case operation name, e.g. `launch_search`. */
  name: string;
  method: HttpMethod;
  /** Path under /v1 with `{projectId}`-style placeholders. */
  path: string;
  auth: RouteAuth;
  cost: string;
  costLine: string;
  summary: string;
  proposable: boolean;
  /** Routes outside the action catalog (health, the OpenAPI document). */
  catalog?: boolean;
  query?: ZodType;
  body?: ZodType;
  /** Shape of `data` in a success answer (documentation today; enforced by the router later). */
  response?: ZodType;
  /** `routes` is the table the app registered, for the catalog and the OpenAPI document. */
  handler: (ctx: ApiContext, deps: ApiDeps, routes: readonly RouteDef[]) => Promise<void>;
}

export const defineRoutes = (routes: RouteDef[]) => routes;
