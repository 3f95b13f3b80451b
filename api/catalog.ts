import { z } from 'zod';
import { routerRules } from './openapi-rules';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from 'zod-openapi';
import type { Config } from '../src/config';
import { WEBHOOK_EVENTS } from '../src/webhooks/webhooks.schemas';
import { ERROR_STATUS, errorEnvelope, type ErrorCode } from './errors';
import { routeErrorCodes, type RouteDef } from './route-def';

/** The action catalog entries: every key-API operation of the route table, in table order. */
export function actionCatalog(routes: readonly RouteDef[]) {
  return routes
    .filter((r) => r.catalog !== false)
    .map((r) => ({
      name: r.name,
      method: r.method,
      path: r.path,
      scope: r.auth === 'any' ? 'any' : r.auth,
      cost: r.cost,
      cost_line: r.costLine,
      summary: r.summary,
      proposable: r.proposable,
    }));
}

const HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests allowed per minute', schema: { type: 'integer' as const } },
  'X-RateLimit-Remaining': { description: 'Requests left in this minute', schema: { type: 'integer' as const } },
  'X-RateLimit-Reset': { description: 'Unix time the window resets', schema: { type: 'integer' as const } },
  'X-Request-Id': { description: 'The request id (echoed when the caller sent a valid one)', schema: { type: 'string' as const } },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' as const } },
};
const ref = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });
const rateLimitHeaders = Object.fromEntries(
  (['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Request-Id'] as const).map((h) => [h, ref(h)]),
);

/** The success envelope around a route's data schema. */
export function successEnvelope(data: z.ZodType, total: boolean) {
  return z.strictObject({
    data,
    meta: total
      ? z.strictObject({ request_id: z.string(), total: z.int().describe('How many items there are in all') })
      : z.strictObject({ request_id: z.string() }),
  });
}

function successResponses(route: RouteDef): ZodOpenApiResponsesObject {
  const r = route.response;
  if (r.kind === 'csv') return { '200': { description: r.description, headers: rateLimitHeaders, content: { 'text/csv': { schema: { type: 'string' } } } } };
  if (r.kind === 'document') return { '200': { description: r.description, headers: rateLimitHeaders, content: { 'application/json': { schema: r.data } } } };
  const statuses = typeof r.status === 'number' ? [r.status] : r.status;
  const schema = successEnvelope(r.data, r.total ?? false);
  // 503 of health is the same shape as its 200, but it is an answer about an outage.
  return Object.fromEntries(
    statuses.map((status) => [String(status), { description: r.description, headers: rateLimitHeaders, content: { 'application/json': { schema } } }]),
  );
}

/** One response per error status, listing every code of that status the route can answer. */
function errorResponses(route: RouteDef): ZodOpenApiResponsesObject {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of routeErrorCodes(route) as ErrorCode[]) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => [
      String(status),
      {
        description: `error.code: ${codes.map((c) => `\`${c}\``).join(', ')}`,
        headers: status === 429 || status === 503 ? { ...rateLimitHeaders, 'Retry-After': ref('Retry-After') } : rateLimitHeaders,
        content: {
          'application/json': {
            schema: { $ref: '#/components/schemas/Error' },
            example: { error: { code: codes[0], message: '…', details: null, request_id: 'req_0123' }, meta: { request_id: 'req_0123' } },
          },
        },
      },
    ]),
  );
}

function operation(route: RouteDef): ZodOpenApiOperationObject {
  const takesBody = route.body !== undefined;
  // A body whose schema accepts {} may be left out.
  const bodyRequired = takesBody && !route.body!.safeParse({}).success;
  return {
    operationId: route.name,
    summary: route.summary,
    description: `${route.costLine}${route.auth === 'none' ? ' No API key needed.' : route.auth === 'any' ? ' Any valid API key.' : ` Scope: \`${route.auth}\`.`}`,
    tags: [route.tag],
    security: route.auth === 'none' ? [] : [{ bearer: route.auth === 'any' ? [] : [route.auth] }],
    requestParams: {
      ...(route.params ? { path: route.params } : {}),
      ...(route.query ? { query: route.query } : {}),
      ...(route.headers ? { header: route.headers } : {}),
    },
    ...(takesBody
      ? {
          requestBody: {
            required: bodyRequired,
            content: { 'application/json': { schema: route.body!, ...(route.example !== undefined ? { example: route.example } : {}) } },
          },
        }
      : {}),
    responses: { ...successResponses(route), ...errorResponses(route) },
    'x-cost': route.cost,
    'x-proposable': route.proposable,
  };
}

const TAG_DESCRIPTIONS: Record<string, string> = {
  Health: 'Service health',
  Catalog: 'The operations of this API',
  Projects: 'Projects group searches and one shortlist',
  Searches: 'Launch searches and read their people and records',
  Scoring: 'Re-score a search without searching again',
  Feedback: 'Rate people of a search; the search learns from the ratings (calibration)',
  Monitors: 'Re-run a search on a cadence and hear about the new people it finds',
  Shortlist: "A project's shortlist and its share link",
  Reference: 'Allowed criteria values',
  Webhooks: 'Signed event deliveries to your endpoints',
  Billing: 'Credits: balance, ledger and top-ups',
  Usage: 'Requests, credits and cost events',
  Data: 'People, company and web data from the configured providers (or the built-in sources)',
};

/** OpenAPI 3.1, generated from the same route table (and its zod schemas) that registers the routes. */
export function openApiDocument(routes: readonly RouteDef[], config: Pick<Config, 'publicBaseUrl'>) {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes) paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation(route) };
  const webhooks: ZodOpenApiPathsObject = Object.fromEntries(
    Object.entries(WEBHOOK_EVENTS).map(([type, schema]) => [
      type,
      {
        post: {
          operationId: `event_${type.replace('.', '_')}`,
          summary: `The ${type} event`,
          description:
            'POSTed to subscribed endpoints, signed in the Service-Signature header (t=<unix time>,v1=<hex HMAC-SHA256 of "t.body">); answer 2xx within 10 s.',
          tags: ['Webhooks'],
          // Authenticated by the signature, not by a key of ours.
          security: [],
          requestBody: { required: true, content: { 'application/json': { schema } } },
          responses: { '200': { description: 'Received (any 2xx)' } },
        },
      },
    ]),
  );
  return createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'Candidate Sourcing API',
        version: 'v1',
        description: 'Key-authenticated API. Every response carries X-RateLimit-* and X-Request-Id headers.',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: config.publicBaseUrl }],
      tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' } },
        schemas: { Error: errorEnvelope },
        headers: HEADERS,
      },
      paths,
      webhooks,
    },
    { override: routerRules },
  );
}
