import { z } from 'zod';
import type { Role } from '../../src/db/membership.repository';
import type { SessionWithContext } from '../../src/db/session.repository';
import { AppError } from '../../src/domain/errors';
import type { ApiContext, ApiDeps } from '../context';
import { invalid, readInput, type RequestIssue, type RouteInput } from '../route-def';

/**
 * Who may call a session route: `public` needs no session; otherwise the lowest role
 * (viewer < operator < admin) the session's membership must hold.
 */
export type SessionAccess = 'public' | Role;

/**
 * The status of every session-API error code (spec "Session API errors": `code` appears only
 * where a caller must branch; the other errors are `{error}` alone).
 */
export const SESSION_ERROR_STATUS = {
  invalid_request: 400,
  invalid_password: 400,
  idempotency_key_required: 400,
  criteria_required: 400,
  invalid_criteria: 400,
  plan_required: 402,
  no_active_plan: 402,
  shortlist_allocation_exhausted: 402,
  csrf: 403,
  frozen: 403,
  forbidden: 403,
  no_workspace: 403,
  not_found: 404,
  project_not_found: 404,
  workspace_not_found: 404,
  idempotency_key_reused: 409,
  credential_inactive: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  llm_not_configured: 424,
  provider_unavailable: 424,
  search_unavailable: 424,
  emailoutreach_not_configured: 424,
  socialoutreach_not_configured: 424,
  too_many_attempts: 429,
  daily_search_limit: 429,
  concurrent_search_limit: 429,
  extraction_failed: 502,
  service_unavailable: 503,
  brief_reader_busy: 503,
} as const satisfies Record<string, number>;
export type SessionErrorCode = keyof typeof SESSION_ERROR_STATUS;

/** Session-API error body: a human-readable message, a code where a caller must branch, and a validation failure's problems. */
export const sessionError = z
  .strictObject({
    error: z.string().describe('Human-readable message'),
    code: z.string().optional().describe('Present where a caller must branch'),
    problems: z
      .array(z.strictObject({ field: z.string().describe('Dotted path, e.g. criteria.skills.0'), message: z.string() }))
      .optional()
      .describe('Validation failures (400): every problem, by field, so a form can show each next to its field'),
  })
  .meta({ id: 'SessionError' });

/** What a route can answer beyond its successes: codes, and statuses without a code (the message is the answer). */
export interface SessionErrors {
  /** Codes the route can answer beyond the session, CSRF, frozen, role and body-reading ones. */
  codes?: readonly SessionErrorCode[];
  /** Code-less statuses beyond 401 (signed-out), 400 (input) and 500. */
  plain?: readonly number[];
}

interface SessionRouteMeta {
  /** snake_case operation name, e.g. `create_scan`. */
  name: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** Path under /api with `{id}`-style placeholders. */
  path: string;
  access: SessionAccess;
  /** GET /api/me and sign-out still answer for a frozen workspace (spec rule 4). */
  allowedWhenFrozen?: boolean;
  summary: string;
  /** What a path id names: a malformed one is 404 `{error: "<resource> not found", code: "not_found"}`, like another workspace's record. */
  resource?: string;
  /** The success statuses and the bare JSON they answer (no envelope on the session API). */
  response: { status: number | readonly number[]; data: z.ZodType; description: string };
  errors?: SessionErrors;
  /** The code a validation failure gets from its first problem; none (`{error}` alone) when undefined. */
  invalidCode?: (issue: RequestIssue) => SessionErrorCode | undefined;
  /** Every code `invalidCode` or the schemas' custom issues can give. */
  invalidCodes?: readonly SessionErrorCode[];
  /** One example request body (for the OpenAPI document). */
  example?: unknown;
}

type Maybe = z.ZodType | undefined;
type Shape = z.ZodObject<z.core.$ZodLooseShape>;
type PathOut<P extends Maybe> = P extends z.ZodType ? z.output<P> : Record<string, string>;

/** What a handler gets: the validated input, and the signed-in session (absent only on public routes). */
export type SessionInput<P extends Maybe, H extends Maybe, Q extends Maybe, B extends Maybe, L> = RouteInput<P, H, Q, B, L> & { session: SessionWithContext };

/** What a handler answers: the JSON body, and a status other than the route's first one where needed. */
export interface SessionReply {
  status?: number;
  body: unknown;
}

export interface SessionRouteSpec<P extends Maybe, H extends Maybe, Q extends Maybe, B extends Maybe, L> extends SessionRouteMeta {
  params?: P;
  headers?: H;
  query?: Q;
  body?: B;
  /** Record lookup (another workspace's record: 404) before headers, query and body are validated. */
  load?: (session: SessionWithContext, deps: ApiDeps, params: PathOut<P>) => Promise<L>;
  handler: (ctx: ApiContext, input: SessionInput<P, H, Q, B, L>, deps: ApiDeps) => Promise<SessionReply>;
}

/**
 * One session-API operation. The table registers the router (with its session, CSRF, frozen and
 * role checks), generates the session API's OpenAPI document and checks responses in the tests.
 */
export interface SessionRouteDef extends SessionRouteMeta {
  params?: Shape;
  headers?: Shape;
  query?: Shape;
  body?: z.ZodType;
  /** Validates the request (path ids → 404 first, then the rest → 400), runs the handler and answers. */
  run: (ctx: ApiContext, deps: ApiDeps, session: SessionWithContext) => Promise<void>;
}

/** Builds a session route; its handler receives the request validated and typed from the schemas. */
export function defineSessionRoute<
  P extends Shape | undefined = undefined,
  H extends Shape | undefined = undefined,
  Q extends Shape | undefined = undefined,
  B extends Maybe = undefined,
  L = undefined,
>(spec: SessionRouteSpec<P, H, Q, B, L>): SessionRouteDef {
  const { load, handler, ...meta } = spec;
  const statuses = typeof spec.response.status === 'number' ? [spec.response.status] : spec.response.status;
  return {
    ...meta,
    params: spec.params,
    headers: spec.headers,
    query: spec.query,
    body: spec.body,
    async run(ctx, deps, session) {
      const input = await readInput<P, H, Q, B, L>(ctx, {
        ...spec,
        load: load && ((params) => load(session, deps, params)),
        pathInvalid: () => new AppError('not_found', 404, `${spec.resource ?? 'Record'} not found`),
        invalid: (issues) => invalid(issues, spec.invalidCode, null),
      });
      const reply = await handler(ctx, { ...input, session }, deps);
      ctx.status = reply.status ?? statuses[0];
      ctx.set('Cache-Control', 'no-store');
      ctx.body = reply.body;
    },
  };
}

/** Every error code the route can answer, with the common ones of its access and input. */
export function sessionErrorCodes(route: SessionRouteDef): SessionErrorCode[] {
  const codes: SessionErrorCode[] = [];
  if (route.method !== 'GET') codes.push('csrf');
  if (route.access !== 'public') {
    if (!route.allowedWhenFrozen) codes.push('frozen');
    if (route.access !== 'viewer') codes.push('forbidden');
  }
  if (route.method !== 'GET' && route.method !== 'DELETE') codes.push('invalid_request', 'payload_too_large', 'unsupported_media_type');
  if (route.path.includes('{')) codes.push('not_found');
  // Any route can meet a database outage (the session itself is read from it).
  codes.push('service_unavailable');
  return [...new Set([...codes, ...(route.invalidCodes ?? []), ...(route.errors?.codes ?? [])])];
}

/** Every status the route can answer without a code. */
export function sessionPlainStatuses(route: SessionRouteDef): number[] {
  const statuses = [500];
  if (route.access !== 'public') statuses.push(401);
  if (route.body || route.headers || route.query) statuses.push(400);
  return [...new Set([...statuses, ...(route.errors?.plain ?? [])])].sort();
}
