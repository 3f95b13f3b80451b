import { z } from 'zod';
import type { Config } from '../src/config';
import { API_VERSION, EVENT_TYPES } from '../src/events/outbox';
import type { RouteDef } from './route-def';

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

const errorSchema = {
  type: 'object',
  required: ['error', 'meta'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'details', 'request_id'],
      properties: {
        code: { type: ['string', 'null'] },
        message: { type: 'string' },
        details: { type: ['object', 'null'] },
        request_id: { type: 'string' },
      },
    },
    meta: { type: 'object', properties: { request_id: { type: 'string' }, correlation_id: { type: 'string' } } },
  },
};

const rateLimitHeaders = Object.fromEntries(
  ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Request-Id'].map((h) => [h, { schema: { type: h === 'X-Request-Id' ? 'string' : 'integer' } }]),
);

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
};

/** OpenAPI 3.1, generated from the same route table (and its zod schemas) that registers the routes. */
export function openApiDocument(routes: readonly RouteDef[], config: Config) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    const query = route.query ? Object.entries((jsonSchema(route.query, 'input').properties ?? {}) as Record<string, unknown>).map(([name, schema]) => ({ name, in: 'query', required: false, schema })) : [];
    paths[route.path] ??= {};
    paths[route.path][route.method.toLowerCase()] = {
      operationId: route.name,
      summary: route.summary,
      description: `${route.costLine}${route.auth === 'none' ? ' No API key needed.' : route.auth === 'any' ? ' Any valid API key.' : ` Scope: \`${route.auth}\`.`}`,
      ...(route.auth === 'none' ? { security: [] } : { security: [{ bearer: route.auth === 'any' ? [] : [route.auth] }] }),
      parameters: [...params, ...query],
      ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(route.body, 'input') } } } } : {}),
      responses: {
        '2XX': { description: 'Success: `{data, meta:{request_id}}`', headers: rateLimitHeaders },
        default: { description: 'Error', headers: rateLimitHeaders, content: { 'application/json': { schema: errorSchema } } },
      },
      'x-cost': route.cost,
      'x-proposable': route.proposable,
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Candidate Sourcing API', version: 'v1', description: 'Key-authenticated API. Every response carries X-RateLimit-* and X-Request-Id headers.' },
    servers: [{ url: config.publicBaseUrl }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' } } },
    paths,
    // Every event type a webhook endpoint can receive (`*` subscribers receive them all).
    webhooks: Object.fromEntries(
      EVENT_TYPES.map((type) => [
        type,
        {
          post: {
            operationId: `event_${type.replace(/\W/g, '_')}`,
            summary: `The ${type} event`,
            requestBody: {
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['id', 'type', 'created_at', 'workspace_id', 'api_version', 'data'],
                    properties: { id: { type: 'string' }, type: { const: type }, created_at: { type: 'string' }, workspace_id: { type: 'string' }, api_version: { const: API_VERSION }, data: { type: 'object' } },
                  },
                },
              },
            },
            responses: { '2XX': { description: 'Received' } },
          },
        },
      ]),
    ),
  };
}
