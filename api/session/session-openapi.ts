import { z } from 'zod';
import type { Config } from '../../src/config';
import type { SessionRouteDef } from './session-route-def';

const errorSchema = {
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'string', description: 'Human-readable message' }, code: { type: 'string', description: 'Present where a caller must branch' } },
};

/** The session API's OpenAPI document, generated from the session route table (its own document beside /v1/openapi.json). */
export function sessionOpenApi(routes: readonly SessionRouteDef[], config: Config) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    if (route.name === 'create_scan') params.push({ name: 'Idempotency-Key', in: 'header', required: true, schema: { type: 'string' } });
    const responses: Record<string, unknown> = { '200': { description: route.responds } };
    if (route.access !== 'public') {
      responses['401'] = { description: 'Sign in required', content: { 'application/json': { schema: errorSchema } } };
      responses['403'] = { description: `code \`frozen\`${route.allowedWhenFrozen ? ' (not on this route)' : ''}, \`forbidden\` (below ${route.access}) or \`csrf\``, content: { 'application/json': { schema: errorSchema } } };
    }
    paths[`/api${route.path}`] ??= {};
    paths[`/api${route.path}`][route.method.toLowerCase()] = {
      operationId: route.name,
      summary: route.summary,
      tags: ['session'],
      'x-role': route.access,
      ...(params.length ? { parameters: params } : {}),
      ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: z.toJSONSchema(route.body, { io: 'input', unrepresentable: 'any' }) } } } } : {}),
      responses,
      security: route.access === 'public' ? [] : [{ sessionCookie: [] }],
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Candidate sourcing: session API', version: '1', description: 'Cookie-authenticated API of the web app. Roles: viewer reads; operator also writes; admin also manages credentials.' },
    servers: [{ url: config.apiUrl }],
    tags: [{ name: 'session', description: 'Session API (cookie `sid`)' }],
    components: {
      securitySchemes: { sessionCookie: { type: 'apiKey', in: 'cookie', name: 'sid', description: 'Set by POST /api/auth/sign-in' } },
      schemas: { SessionError: errorSchema },
    },
    paths,
  };
}
