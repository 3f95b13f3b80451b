import { createSchema } from 'zod-openapi';
import type { z } from 'zod';
import { actionCatalog } from '../../api/catalog';
import type { RouteDef } from '../../api/route-def';
import { SourcingApiError, type OperationName, type SourcingClient } from '../../sdk/src';

/**
 * One MCP tool per action of the catalog (GET /v1/actions), named as there. The input schema is
 * the route's own zod schemas turned into JSON Schema the way the OpenAPI document does it: path
 * and query values at the top level, the JSON body under `body`, and `idempotency_key` where the
 * route takes an Idempotency-Key.
 */

type JsonSchema = Record<string, unknown>;

export interface CatalogTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, JsonSchema>; required: string[]; additionalProperties: false; $defs?: Record<string, JsonSchema> };
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  /** Which top-level arguments go where in the request. */
  pathNames: string[];
  queryNames: string[];
}

const DEFS = '#/$defs/';
const PROPOSE = ' An agent should propose this action to a person and call it only once they have confirmed it, since it acts on their account.';

/** JSON Schema of a zod schema as a request input; named parts land in `defs`. */
function jsonSchema(schema: z.ZodType, defs: Record<string, JsonSchema>): JsonSchema {
  const result = createSchema(schema, { io: 'input', schemaRefPath: DEFS });
  Object.assign(defs, result.components);
  return result.schema as JsonSchema;
}

/** The properties of an object schema, following a reference to a named one. */
function objectParts(schema: JsonSchema, defs: Record<string, JsonSchema>): { properties: Record<string, JsonSchema>; required: string[] } {
  const ref = typeof schema.$ref === 'string' ? defs[schema.$ref.slice(DEFS.length)] : schema;
  return { properties: (ref.properties ?? {}) as Record<string, JsonSchema>, required: (ref.required ?? []) as string[] };
}

function toolOf(route: RouteDef): CatalogTool {
  const defs: Record<string, JsonSchema> = {};
  const path = route.params ? objectParts(jsonSchema(route.params, defs), defs) : { properties: {}, required: [] };
  const query = route.query ? objectParts(jsonSchema(route.query, defs), defs) : { properties: {}, required: [] };
  const properties: Record<string, JsonSchema> = { ...path.properties, ...query.properties };
  const required = [...path.required, ...query.required];
  // Routes whose body schema accepts only {} (test, redeliver, database pass) take no body argument.
  const bodyDefs: Record<string, JsonSchema> = {};
  const body = route.body && jsonSchema(route.body, bodyDefs);
  const takesBody = body && !(body.$ref === `${DEFS}Empty` || (body.type === 'object' && Object.keys(body.properties ?? {}).length === 0));
  if (takesBody) {
    Object.assign(defs, bodyDefs);
    properties.body = { ...body, description: 'The JSON request body' };
    if (!route.body!.safeParse({}).success) required.push('body');
  }
  if (route.headers?.shape['Idempotency-Key']) {
    properties.idempotency_key = {
      type: 'string',
      minLength: 8,
      maxLength: 160,
      description: 'Idempotency-Key: the same key, project and body answer the first result instead of doing it again (one is made when left out)',
    };
  }
  const read = route.method === 'GET';
  return {
    name: route.name,
    description: `${route.summary} ${route.costLine}${route.proposable ? PROPOSE : ''}`,
    inputSchema: { type: 'object', properties, required, additionalProperties: false, ...(Object.keys(defs).length ? { $defs: defs } : {}) },
    annotations: {
      title: route.summary,
      readOnlyHint: read,
      destructiveHint: route.method === 'DELETE',
      idempotentHint: read || route.method === 'DELETE',
      openWorldHint: false,
    },
    pathNames: Object.keys(path.properties),
    queryNames: Object.keys(query.properties),
  };
}

/** The tools, in catalog order. */
export function catalogTools(routes: readonly RouteDef[]): CatalogTool[] {
  const byName = new Map(routes.map((r) => [r.name, r]));
  return actionCatalog(routes).map((action) => toolOf(byName.get(action.name)!));
}

export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  isError?: boolean;
}

const text = (value: unknown, isError = false): ToolResult => ({
  content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }],
  ...(isError ? { isError } : {}),
});

/** Calls the tool's operation through the SDK: the API's answer as JSON text, its error answers as tool errors with the code. */
export async function callTool(client: SourcingClient, tool: CatalogTool, args: Record<string, unknown>): Promise<ToolResult> {
  const unknown = Object.keys(args).filter((k) => !(k in tool.inputSchema.properties));
  if (unknown.length) {
    return text({ error: { code: 'invalid_arguments', message: `unknown argument(s): ${unknown.join(', ')}`, details: { unknown }, request_id: null } }, true);
  }
  const pick = (names: string[]) => Object.fromEntries(names.filter((n) => args[n] !== undefined).map((n) => [n, args[n] as string | number | boolean]));
  try {
    const result = await client.invoke(tool.name as OperationName, {
      path: pick(tool.pathNames) as Record<string, string | number>,
      query: pick(tool.queryNames),
      body: args.body,
      idempotencyKey: typeof args.idempotency_key === 'string' ? args.idempotency_key : undefined,
    });
    return text(result);
  } catch (err) {
    if (err instanceof SourcingApiError) {
      return text({ error: { code: err.code, message: err.message, details: err.details, request_id: err.requestId, status: err.status } }, true);
    }
    return text({ error: { code: 'request_failed', message: err instanceof Error ? err.message : String(err), details: null, request_id: null } }, true);
  }
}
