import type { ZodOpenApiOverride } from 'zod-openapi';
import { NO_NUL } from '../src/domain/text';

/**
 * Rules the router applies to every request, stated in both generated OpenAPI documents (key API
 * and session API): no request value may hold a NUL character (api/route-def.ts refuses it
 * everywhere, Postgres cannot store it), so a request string without a pattern, format or enum of
 * its own gets the pattern saying so. The schemas' own patterns already leave NUL out.
 */
export const routerRules: ZodOpenApiOverride = (ctx) => {
  if (ctx.io !== 'input') return;
  const schema = ctx.jsonSchema;
  if (schema.type === 'string' && schema.pattern === undefined && schema.format === undefined && schema.enum === undefined && schema.const === undefined) {
    schema.pattern = NO_NUL.source;
  }
};
