import type { ParameterizedContext } from 'koa';
import type { BriefReader } from '../src/briefs/brief-reader';
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
  /** Reads job descriptions on worker threads (set by startApiServer when not given). */
  briefReader?: BriefReader;
}

/** The brief reader of a running API (startApiServer always sets one). */
export function briefReaderOf(deps: ApiDeps): BriefReader {
  if (!deps.briefReader) throw new Error('the API was started without a brief reader');
  return deps.briefReader;
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

/** A path parameter by this name is a credential (share links, checkout pages): its value never reaches a log line or a span. */
export const CREDENTIAL_PARAM = ':token';
/** Paths whose next segment is such a credential, also when no route matched (`/share/<token>/x`). */
const CREDENTIAL_SEGMENT = /^(\/share\/|\/api\/shares\/|\/checkout\/)[^/]+/;

/**
 * The request path as request lines and traces record it: a credential in it replaced by
 * `:token` (the route template when a route with one answered).
 */
export function recordedPath(ctx: { path: string }): string {
  const route = matchedRoute(ctx);
  if (route?.includes(CREDENTIAL_PARAM)) return route;
  return ctx.path.replace(CREDENTIAL_SEGMENT, `$1${CREDENTIAL_PARAM}`);
}

/** The caller's key and workspace; only routes that require a key call this. */
export function authOf(ctx: ApiContext): KeyWithWorkspace {
  if (!ctx.state.auth) throw new Error('route used authOf without authentication');
  return ctx.state.auth;
}
