import type { Scope } from '../src/domain/scopes';
import { z } from 'zod';
import { AppError } from '../src/domain/errors';
import type { ApiContext, ApiDeps } from './context';
import { commonErrorCodes, PATH_RESOURCES } from './errors';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** `{projectId}` (the form route tables declare paths in) → `:projectId` (the router's). */
export const toRouterPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * Who may call a route: `none` needs no key, `any` needs any valid key, otherwise the one scope
 * the key must hold.
 */
export type RouteAuth = 'none' | 'any' | Scope;

/** Where a request value came from; problems name their field by its path inside it. */
export type InputSection = 'params' | 'headers' | 'query' | 'body';

/** One validation problem, the shape criteria validation has always answered. */
export interface Problem {
  field: string;
  message: string;
}

/** A failing zod issue with the part of the request it concerns. */
export interface RequestIssue {
  section: InputSection;
  path: readonly PropertyKey[];
  issue: z.core.$ZodIssue;
}

/**
 * What a successful call answers. `json`: the `{data, meta}` envelope around `data` (meta.total
 * when `total`); `csv`: a text/csv download; `document`: the bare JSON of `data` (no envelope).
 */
export type RouteResponse =
  | { kind: 'json'; status: number | readonly number[]; data: z.ZodType; total?: boolean; description: string }
  | { kind: 'csv'; description: string }
  | { kind: 'document'; data: z.ZodType; description: string };

type Maybe = z.ZodType | undefined;
type Out<S extends Maybe> = S extends z.ZodType ? z.output<S> : undefined;
type Shape = z.ZodObject<z.core.$ZodLooseShape>;
/** Path values: typed by the schema, else the raw strings. */
type PathOut<P extends Maybe> = P extends z.ZodType ? z.output<P> : Record<string, string>;

/** The validated request, typed from the route's schemas. */
export interface RouteInput<P extends Maybe, H extends Maybe, Q extends Maybe, B extends Maybe, L> {
  params: PathOut<P>;
  headers: Out<H>;
  query: Out<Q>;
  body: Out<B>;
  /** What the route's `load` found for the path ids (their 404s come before any other validation). */
  found: L;
}

/**
 * A route's cost class, as `/actions` (`cost`) and OpenAPI (`x-cost`) show it: `free` uses no
 * credits, `none` is outside billing (health), `shortlist_credit` uses shortlist credits, `usd` is
 * billed per call.
 */
export type RouteCost = 'free' | 'none' | 'shortlist_credit' | 'usd';

/** The cost lines a class gives a route that does not say more. */
const COST_LINES = { none: 'Free.', freeRead: 'Free: reads use no credits.' } as const;

/**
 * A route's cost class and its cost line (the sentence `/actions`, OpenAPI and the MCP tools show).
 * The line may be left out where the class says it all: `none`, and a `free` GET (a read). A free
 * write and a billed route say what it costs in their own words.
 */
type RouteCosting = { cost: 'none'; costLine?: string } | { cost: 'free'; method: 'GET'; costLine?: string } | { cost: RouteCost; costLine: string };

interface RouteMeta {
  /** snake_case operation name, e.g. `launch_search`. */
  name: string;
  method: HttpMethod;
  /** Path under /v1 with `{projectId}`-style placeholders. */
  path: string;
  auth: RouteAuth;
  summary: string;
  /** OpenAPI tag (one per feature). */
  tag: string;
  proposable: boolean;
  /** Routes outside the action catalog (health, the OpenAPI document). */
  catalog?: boolean;
  response: RouteResponse;
  /** Codes the handler's domain code can answer, beyond authentication, validation and path 404s. */
  errors?: readonly string[];
  /**
   * The code a validation failure gets, chosen from its first problem; `invalid_request` when
   * this answers undefined. A custom zod issue may name its own code in `params.code`.
   */
  invalidCode?: (issue: RequestIssue) => string | undefined;
  /** Every code `invalidCode` or the schemas' custom issues can give (for the OpenAPI document). */
  invalidCodes?: readonly string[];
  /** One example request body (for the OpenAPI document). */
  example?: unknown;
}

export type RouteSpec<P extends Maybe, H extends Maybe, Q extends Maybe, B extends Maybe, L> = RouteMeta &
  RouteCosting & {
    params?: P;
    headers?: H;
    query?: Q;
    body?: B;
    load?: (ctx: ApiContext, deps: ApiDeps, params: PathOut<P>) => Promise<L>;
    /** `routes` is the table the app registered, for the catalog and the OpenAPI document. */
    handler: (ctx: ApiContext, input: RouteInput<P, H, Q, B, L>, deps: ApiDeps, routes: readonly RouteDef[]) => Promise<void>;
  };

/**
 * One key-API operation. The same table registers the router, feeds `GET /actions`, generates
 * the OpenAPI document and checks responses in the tests, so they can never drift apart.
 */
export interface RouteDef extends RouteMeta {
  cost: RouteCost;
  costLine: string;
  params?: Shape;
  headers?: Shape;
  query?: Shape;
  body?: z.ZodType;
  /** Validates the request (path ids → 404 first, then the rest → 400) and runs the handler. */
  run: (ctx: ApiContext, deps: ApiDeps, routes: readonly RouteDef[]) => Promise<void>;
}

const UNKNOWN_FIELD = 'unknown field';

/** Every problem of the issues, as `field: message` pairs (paths dotted); unknown keys one each. */
export function problemsOf(issues: readonly RequestIssue[]): Problem[] {
  return issues.flatMap(({ path, issue }) => {
    const base = path.map(String);
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ field: [...base, key].join('.'), message: UNKNOWN_FIELD }));
    return [{ field: base.join('.') || '(body)', message: issue.message }];
  });
}

function issuesOf(section: InputSection, schema: z.ZodType | undefined, value: unknown): { issues: RequestIssue[]; data: unknown } {
  if (!schema) return { issues: [], data: undefined };
  const result = schema.safeParse(value);
  if (result.success) return { issues: [], data: result.data };
  return { issues: result.error.issues.map((issue) => ({ section, path: issue.path, issue })), data: undefined };
}

/**
 * 400 with the code of the first problem and every problem in the message and details. Without
 * an `invalidCode` answer the code is `fallbackCode` (the key API's `invalid_request`; the session
 * API's validation errors carry none).
 */
export function invalid(issues: RequestIssue[], invalidCode: RouteMeta['invalidCode'], fallbackCode: string | null = 'invalid_request'): AppError {
  const first = issues[0];
  const custom = first.issue.code === 'custom' ? (first.issue.params as Record<string, unknown> | undefined) : undefined;
  const { code: customCode, ...extra } = custom ?? {};
  const code = typeof customCode === 'string' ? customCode : (invalidCode?.(first) ?? fallbackCode);
  const problems = problemsOf(issues);
  return new AppError(code, 400, problems.map((p) => `${p.field}: ${p.message}`).join('; '), { problems, ...extra });
}

/**
 * The query against its schema. A parameter the route reads that is given more than once
 * (`?limit=1&limit=2`) arrives as an array: it is one problem saying so, not the schema's
 * complaint about an array (e.g. "expected number, received NaN" after coercion).
 */
function queryIssues(schema: Shape | undefined, query: Record<string, unknown>): { issues: RequestIssue[]; data: unknown } {
  const repeated = schema ? Object.keys(schema.shape).filter((name) => Array.isArray(query[name])) : [];
  if (!repeated.length) return issuesOf('query', schema, query);
  const { issues } = issuesOf('query', schema, query);
  return {
    issues: [
      ...repeated.map((name): RequestIssue => {
        const given = query[name] as unknown[];
        return {
          section: 'query',
          path: [name],
          issue: { code: 'custom', path: [name], message: `must be given once, not ${given.length} times`, input: given },
        };
      }),
      ...issues.filter(({ path }) => !repeated.includes(String(path[0]))),
    ],
    data: undefined,
  };
}

const NUL_MESSAGE = 'must not contain NUL (\\u0000) characters';

/**
 * One issue per string (or object key) holding a NUL character: Postgres refuses \u0000 in text
 * and jsonb, so such values are refused here, for every route, before any handler stores them.
 */
function nulIssues(section: InputSection, value: unknown): RequestIssue[] {
  const issues: RequestIssue[] = [];
  // Iterative: bodies are depth-capped, but query and header values need no recursion either.
  const pending: [unknown, PropertyKey[]][] = [[value, []]];
  while (pending.length) {
    const [node, path] = pending.pop()!;
    if (typeof node === 'string') {
      if (node.includes('\0')) issues.push({ section, path, issue: { code: 'custom', path, message: NUL_MESSAGE, input: node } });
    } else if (node !== null && typeof node === 'object') {
      const entries = Array.isArray(node) ? node.map((item, i): [PropertyKey, unknown] => [i, item]) : Object.entries(node);
      for (const [key, child] of entries.reverse()) {
        if (typeof key === 'string' && key.includes('\0'))
          issues.push({ section, path: [...path, key], issue: { code: 'custom', path: [...path, key], message: NUL_MESSAGE, input: key } });
        else pending.push([child, [...path, key]]);
      }
    }
  }
  return issues;
}

/** Header values by the names the schema declares (`Idempotency-Key`), absent ones undefined. */
function headerValues(ctx: ApiContext, schema: Shape): Record<string, string | undefined> {
  // A header sent empty is present (and invalid where a pattern applies), not absent.
  return Object.fromEntries(Object.keys(schema.shape).map((name) => [name, ctx.headers[name.toLowerCase()] === undefined ? undefined : ctx.get(name)]));
}

/** The request schemas of a route (key API or session API) and how its refusals are worded. */
export interface InputSpec<P extends Maybe, L> {
  path: string;
  params?: Shape;
  headers?: Shape;
  query?: Shape;
  body?: z.ZodType;
  /** Resource lookup from the validated path values; its 404s come before any other validation. */
  load?: (params: PathOut<P>) => Promise<L>;
  /** The refusal of a malformed path value (a resource's 404, or a 400). */
  pathInvalid: (name: string, issues: RequestIssue[]) => AppError;
  /** The refusal of invalid headers, query or body (all their problems). */
  invalid: (issues: RequestIssue[]) => AppError;
}

/**
 * Validates a request against its route's schemas: path values first (in path order, the
 * outermost resource first), then `load`, then headers, query and body together.
 */
export async function readInput<P extends Shape | undefined, H extends Maybe, Q extends Maybe, B extends Maybe, L>(
  ctx: ApiContext,
  spec: InputSpec<P, L>,
): Promise<RouteInput<P, H, Q, B, L>> {
  const params: Record<string, unknown> = {};
  for (const name of [...spec.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])) {
    const parsed = (spec.params?.shape[name] as z.ZodType | undefined)?.safeParse(ctx.params[name]) ?? { success: true as const, data: ctx.params[name] };
    if (!parsed.success)
      throw spec.pathInvalid(
        name,
        parsed.error.issues.map((issue) => ({ section: 'params', path: [name, ...issue.path], issue })),
      );
    params[name] = parsed.data;
  }
  const found = spec.load ? await spec.load(params as PathOut<P>) : (undefined as L);
  const headerInput = spec.headers && headerValues(ctx, spec.headers);
  const headers = issuesOf('headers', spec.headers, headerInput);
  const query = queryIssues(spec.query, ctx.query);
  // An absent body is an empty object: routes whose schema accepts {} take no body. A JSON
  // `null` is a body, and not an object.
  const body = issuesOf('body', spec.body, ctx.state.body === undefined ? {} : ctx.state.body);
  // Only what the route reads: a NUL in a query or body it ignores is as harmless as the rest of
  // it, and refusing it would answer invalid_request where the route declares none.
  const nul = [
    ...nulIssues('headers', headerInput),
    ...(spec.query ? nulIssues('query', ctx.query) : []),
    ...(spec.body ? nulIssues('body', ctx.state.body) : []),
  ];
  const issues = [...nul, ...headers.issues, ...query.issues, ...body.issues];
  if (issues.length) throw spec.invalid(issues);
  return { params, headers: headers.data, query: query.data, body: body.data, found } as RouteInput<P, H, Q, B, L>;
}

/** Builds a route; its handler receives the request already validated and typed from the schemas. */
export function defineRoute<
  P extends Shape | undefined = undefined,
  H extends Shape | undefined = undefined,
  Q extends Shape | undefined = undefined,
  B extends Maybe = undefined,
  L = undefined,
>(spec: RouteSpec<P, H, Q, B, L>): RouteDef {
  const { load, handler, ...meta } = spec;
  return {
    ...meta,
    costLine: spec.costLine ?? (spec.cost === 'none' ? COST_LINES.none : COST_LINES.freeRead),
    params: spec.params,
    headers: spec.headers,
    query: spec.query,
    body: spec.body,
    async run(ctx, deps, routes) {
      const input = await readInput<P, H, Q, B, L>(ctx, {
        ...spec,
        load: load && ((params) => load(ctx, deps, params)),
        // A malformed path id is the resource's 404.
        pathInvalid: (name, issues) => {
          const resource = PATH_RESOURCES[name];
          return resource ? new AppError(resource.code, 404, `${resource.what} not found`) : invalid(issues, undefined);
        },
        invalid: (issues) => invalid(issues, spec.invalidCode),
      });
      await handler(ctx, input, deps, routes);
    },
  };
}

/** Every error code the route can answer, with the common ones of its auth and input. */
export function routeErrorCodes(route: RouteDef): string[] {
  const pathCodes = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => PATH_RESOURCES[m[1]]?.code).filter((c) => c !== undefined);
  const validation = route.body || route.query || route.headers ? ['invalid_request', ...(route.invalidCodes ?? [])] : [];
  return [
    ...new Set([...commonErrorCodes(route.auth, route.method !== 'GET' && route.method !== 'DELETE'), ...validation, ...pathCodes, ...(route.errors ?? [])]),
  ];
}
