import type { Middleware } from 'koa';
import type { ApiDeps, ApiState } from '../context';
import type { RouteDef } from '../route-def';

/**
 * Counts every authenticated request by workspace and operation, in memory (flushed in batches by
 * the UsageCounter): no SQL on the request path.
 */
export function countUsage(route: RouteDef, { usage }: ApiDeps): Middleware<ApiState> {
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      if (usage && ctx.state.auth) usage.count(ctx.state.auth.workspace.id, route.name);
    }
  };
}
