import type { z, ZodType } from 'zod';
import type { Role } from '../../src/db/membership.repository';
import type { SessionWithContext } from '../../src/db/session.repository';
import type { ApiContext, ApiDeps } from '../context';

/**
 * Who may call a session route: `public` needs no session; otherwise the lowest role
 * (viewer < operator < admin) the session's membership must hold.
 */
export type SessionAccess = 'public' | Role;

export interface SessionHandlerInput<B> {
  ctx: ApiContext;
  deps: ApiDeps;
  /** Validated body (the route's zod schema's output). */
  body: B;
  params: Record<string, string>;
  /** The signed-in session (absent only on public routes). */
  session: SessionWithContext;
}

/** What a handler answers: the JSON body, and a status other than 200 where needed. */
export interface SessionReply {
  status?: number;
  body: unknown;
}

/**
 * One session-API operation. The table registers the router (with its session, CSRF, frozen and
 * role checks) and generates the session API's OpenAPI document.
 */
export interface SessionRouteDef<S extends ZodType = ZodType> {
  name: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** Path under /api with `{id}`-style placeholders. */
  path: string;
  access: SessionAccess;
  /** GET /api/me and sign-out still answer for a frozen workspace (spec rule 4). */
  allowedWhenFrozen?: boolean;
  summary: string;
  body?: S;
  /** Success status and what it returns, for the OpenAPI document. */
  responds: string;
  handler: (input: SessionHandlerInput<z.output<S>>) => Promise<SessionReply>;
}

/** Keeps each route's body type for its handler while the table holds them all. */
export const sessionRoute = <S extends ZodType>(def: SessionRouteDef<S>): SessionRouteDef => def as unknown as SessionRouteDef;
