import { z } from 'zod';
import { successEnvelope } from '../../api/catalog';
import { ERROR_STATUS, errorEnvelope, type ErrorCode } from '../../api/errors';
import { routeErrorCodes, type RouteDef } from '../../api/route-def';
import { routeTable } from '../../api/route-table';

const templates = routeTable.map((route) => ({ route, pattern: new RegExp(`^/v1${route.path.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}$`) }));

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
