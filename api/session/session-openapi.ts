import { routerRules } from '../openapi-rules';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from 'zod-openapi';
import type { Config } from '../../src/config';
import { SESSION_ERROR_STATUS, sessionError, sessionErrorCodes, sessionPlainStatuses, type SessionRouteDef } from './session-route-def';

const PLAIN_ERRORS: Record<number, string> = {
  400: 'Validation: every problem in `error`',
  401: 'Sign in required',
  404: "Not found (or another workspace's record)",
  409: 'State conflict',
  500: 'The underlying message',
  502: 'Upstream failure',
};

/** One response per error status: its codes (branch on them) and whether it also comes without one. */
function errorResponses(route: SessionRouteDef): ZodOpenApiResponsesObject {
  const byStatus = new Map<number, string[]>();
  const add = (status: number, line: string) => byStatus.set(status, [...(byStatus.get(status) ?? []), line]);
  for (const code of sessionErrorCodes(route)) add(SESSION_ERROR_STATUS[code], `code \`${code}\``);
  for (const status of sessionPlainStatuses(route)) add(status, `no code: ${PLAIN_ERRORS[status] ?? 'see error'}`);
  return Object.fromEntries(
    [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, lines]) => [
        String(status),
        { description: lines.join('; '), content: { 'application/json': { schema: sessionError, example: { error: '…' } } } },
      ]),
  );
}

function operation(route: SessionRouteDef): ZodOpenApiOperationObject {
  const statuses = typeof route.response.status === 'number' ? [route.response.status] : route.response.status;
  const bodyRequired = route.body !== undefined && !route.body.safeParse({}).success;
  return {
    operationId: route.name,
    summary: route.summary,
    description:
      route.access === 'public'
        ? 'No session needed.'
        : `Needs a session with the ${route.access} role or higher${route.allowedWhenFrozen ? '; answers for a frozen workspace too' : ''}.`,
    tags: ['Session'],
    security: route.access === 'public' ? [] : [{ sessionCookie: [] }],
    requestParams: {
      ...(route.params ? { path: route.params } : {}),
      ...(route.query ? { query: route.query } : {}),
      ...(route.headers ? { header: route.headers } : {}),
    },
    ...(route.body
      ? {
          requestBody: {
            required: bodyRequired,
            content: { 'application/json': { schema: route.body, ...(route.example !== undefined ? { example: route.example } : {}) } },
          },
        }
      : {}),
    responses: {
      ...Object.fromEntries(
        statuses.map((status) => [
          String(status),
          { description: route.response.description, content: { 'application/json': { schema: route.response.data } } },
        ]),
      ),
      ...errorResponses(route),
    },
    'x-role': route.access,
  };
}

/**
 * The session API's OpenAPI 3.1 document (its own, beside /v1/openapi.json), generated with
 * zod-openapi from the session route table's schemas, as api/catalog.ts does for the key API.
 */
export function sessionOpenApiDocument(routes: readonly SessionRouteDef[], config: Config) {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes) paths[`/api${route.path}`] = { ...paths[`/api${route.path}`], [route.method.toLowerCase()]: operation(route) };
  return createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'Candidate Sourcing session API',
        version: '1',
        description:
          'Cookie-authenticated API of the web app. Roles: viewer reads; operator also writes; admin also manages credentials. ' +
          "Every operation of the key API (/v1/openapi.json) is also served under /api/v1 with this session instead of a key: reads need viewer, writes operator, webhook changes and top-ups admin; errors take this API's {error, code} shape.",
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: config.apiUrl }],
      tags: [{ name: 'Session', description: 'Session API (cookie `sid`)' }],
      components: {
        securitySchemes: { sessionCookie: { type: 'apiKey', in: 'cookie', name: 'sid', description: 'Set by POST /api/auth/sign-in' } },
      },
      paths,
    },
    { override: routerRules },
  );
}
