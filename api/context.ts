import type { ParameterizedContext } from 'koa';
import type { Config } from '../src/config';
import type { KeyWithWorkspace } from '../src/db/api-key.repository';
import type { Db } from '../src/db/knex';
import type { Logger } from '../src/logger';
import type { Temporal } from '../src/temporal/client';
import type { UsageCounter } from '../src/usage/usage-counter';

/** What the API process hands to every route. */
export interface ApiDeps {
  config: Config;
  db: Db;
  temporal: Temporal;
  logger: Logger;
  /** Request counting (GET /usage); absent when USAGE_COUNTING=off. */
  usage?: UsageCounter;
}

export interface ApiState {
  requestId: string;
  /** The request's logger (request-id.ts); add fields with addLogBindings. */
  readonly log: Logger;
  /** Parsed JSON body; undefined when the request had none. */
  body?: unknown;
  /** The authenticated key and its workspace (every route but `auth: 'none'`). */
  auth?: KeyWithWorkspace;
}

export type ApiContext = ParameterizedContext<ApiState> & { params: Record<string, string> };

/** The template of the route that answered (`/v1/searches/:searchId`, set by @koa/router); undefined when none did. */
export const matchedRoute = (ctx: object): string | undefined => (ctx as { _matchedRoute?: string })._matchedRoute;

/** The caller's key and workspace; only routes that require a key call this. */
export function authOf(ctx: ApiContext): KeyWithWorkspace {
  if (!ctx.state.auth) throw new Error('route used authOf without authentication');
  return ctx.state.auth;
}
