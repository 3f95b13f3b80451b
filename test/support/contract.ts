import { z } from 'zod';
import { successEnvelope } from '../../api/catalog';
import { ERROR_STATUS, errorEnvelope, type ErrorCode } from '../../api/errors';
import { routeErrorCodes, type RouteDef } from '../../api/route-def';
import { routeTable } from '../../api/route-table';
import {
  SESSION_ERROR_STATUS,
  sessionError,
  sessionErrorCodes,
  sessionPlainStatuses,
  type SessionErrorCode,
  type SessionRouteDef,
} from '../../api/session/session-route-def';
import { sessionRoutes } from '../../api/session/session.routes';

const patternOf = (prefix: string, path: string) => new RegExp(`^${prefix}${path.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}$`);
const templates = routeTable.map((route) => ({ route, pattern: patternOf('/v1', route.path) }));
const sessionTemplates = sessionRoutes.map((route) => ({ route, pattern: patternOf('/api', route.path) }));

/** The session route a request was for, if it is one of the session table's. */
export function sessionRouteFor(method: string, urlPath: string): SessionRouteDef | undefined {
  const pathname = new URL(urlPath, 'http://x').pathname;
  return sessionTemplates.find((t) => t.route.method === method.toUpperCase() && t.pattern.test(pathname))?.route;
}

/** The route a request was for (method and path template), if it is one of the table's. */
export function routeFor(method: string, urlPath: string): RouteDef | undefined {
  const pathname = new URL(urlPath, 'http://x').pathname;
  return templates.find((t) => t.route.method === method.toUpperCase() && t.pattern.test(pathname))?.route;
}

function describeIssues(error: z.ZodError): string {
  const shown = error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  return [...shown, ...(error.issues.length > 5 ? [`… ${error.issues.length - 5} more`] : [])].join('; ');
}

/**
 * Fails (throws) when a response of a known route drifts from what the route declares: a
 * success must match its status and `{data, meta}` schema exactly, an error the error envelope
 * with a code the route lists (with that code's status). Unknown paths (404/405) are not checked.
 */
export function checkContract(method: string, urlPath: string, res: { status: number; headers: Headers; body: unknown; text: string }): void {
  // Every answer of the API (it alone sets X-Request-Id) tells browsers not to sniff its type.
  if (res.headers.get('x-request-id') && res.headers.get('x-content-type-options') !== 'nosniff') {
    throw new Error(`${method} ${urlPath} → ${res.status}: no X-Content-Type-Options: nosniff`);
  }
  const session = sessionRouteFor(method, urlPath);
  if (session) return checkSessionContract(session, `${method} ${urlPath} → ${res.status}`, res);
  const route = routeFor(method, urlPath);
  if (!route) return;
  const where = `${method} ${urlPath} → ${res.status}`;
  const r = route.response;
  const statuses = r.kind === 'json' ? (typeof r.status === 'number' ? [r.status] : r.status) : [200];
  if (statuses.includes(res.status)) {
    if (r.kind === 'csv') {
      if (!/^text\/csv/.test(res.headers.get('content-type') ?? '')) throw new Error(`${where}: expected text/csv, got ${res.headers.get('content-type')}`);
      return;
    }
    const schema = r.kind === 'json' ? successEnvelope(r.data, r.total ?? false) : r.data;
    const parsed = schema.safeParse(res.body);
    if (!parsed.success) throw new Error(`${where}: response does not match the ${route.name} schema: ${describeIssues(parsed.error)}`);
    return;
  }
  const parsed = errorEnvelope.safeParse(res.body);
  if (!parsed.success) throw new Error(`${where}: not the error envelope: ${describeIssues(parsed.error)}; body ${res.text.slice(0, 300)}`);
  const code = parsed.data.error.code as ErrorCode;
  if (!routeErrorCodes(route).includes(code)) throw new Error(`${where}: ${route.name} does not declare the error code ${code}`);
  if (ERROR_STATUS[code] !== res.status) throw new Error(`${where}: ${code} is declared with status ${ERROR_STATUS[code]}`);
}

/**
 * The session API's contract: a success is the route's bare JSON schema (no envelope), an error
 * `{error, code?}` whose code the route declares (with that code's status), or a code-less
 * status the route declares.
 */
function checkSessionContract(route: SessionRouteDef, where: string, res: { status: number; body: unknown; text: string }): void {
  const statuses = typeof route.response.status === 'number' ? [route.response.status] : route.response.status;
  if (statuses.includes(res.status)) {
    const parsed = route.response.data.safeParse(res.body);
    if (!parsed.success) throw new Error(`${where}: response does not match the ${route.name} schema: ${describeIssues(parsed.error)}`);
    return;
  }
  const parsed = sessionError.safeParse(res.body);
  if (!parsed.success) throw new Error(`${where}: not the session error shape: ${describeIssues(parsed.error)}; body ${res.text.slice(0, 300)}`);
  const code = parsed.data.code as SessionErrorCode | undefined;
  if (code === undefined) {
    if (!sessionPlainStatuses(route).includes(res.status)) throw new Error(`${where}: ${route.name} does not declare a code-less ${res.status}`);
    return;
  }
  if (!sessionErrorCodes(route).includes(code)) throw new Error(`${where}: ${route.name} does not declare the error code ${code}`);
  if (SESSION_ERROR_STATUS[code] !== res.status) throw new Error(`${where}: ${code} is declared with status ${SESSION_ERROR_STATUS[code]}`);
}
