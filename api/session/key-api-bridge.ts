import Router from '@koa/router';
import type { ApiKey, KeyWithWorkspace } from '../../src/db/api-key.repository';
import type { Role } from '../../src/db/membership.repository';
import type { SessionWithContext } from '../../src/db/session.repository';
import { ALL_SCOPES } from '../../src/domain/scopes';
import type { ApiDeps } from '../context';
import { jsonBody } from '../middleware/json-body';
import { addLogBindings } from '../middleware/request-id';
import { toRouterPath, type RouteDef } from '../route-def';
import { sessionErrors, sessionGuard, type SessionState } from './session.middleware';

/** Where the web app reaches the key API's operations with its cookie: `/api/v1/projects` ≙ `/v1/projects`. */
export const BRIDGE_PREFIX = '/api/v1';

/**
 * The role a key-API operation needs when called from a session (DESIGN.md §10): reads are
 * anyone's, writes are an operator's, webhooks and buying credits an admin's.
 */
export function bridgedRole(route: Pick<RouteDef, 'method' | 'path' | 'auth'>): Role {
  if (route.auth === 'webhooks:write' || (route.method !== 'GET' && route.path.startsWith('/billing/'))) return 'admin';
  // scoring/preview is a POST that only reads.
  if (route.method === 'GET' || (typeof route.auth === 'string' && route.auth.endsWith(':read'))) return 'viewer';
  return 'operator';
}

/**
 * The session seen as the caller the key API's handlers expect: no key row (id null, like a
 * scan launched from the app), the workspace's own credits, every scope (the role decided).
 */
function sessionCaller(session: SessionWithContext): KeyWithWorkspace {
  const key = {
    id: null,
    workspace_id: session.workspace.id,
    name: `session ${session.user.email}`,
    key_hash: '',
    key_hint: '',
    scopes: [ALL_SCOPES],
    funding_mode: 'workspace',
    environment: 'live',
    rate_limit_per_minute: session.workspace.rate_limit_per_minute,
    created_at: session.session.created_at,
    expires_at: null,
    revoked_at: null,
    last_used_at: null,
  } as unknown as ApiKey; // id is null: the rows that record a key (searches, top-ups) allow none
  return { key, workspace: session.workspace };
}

/**
 * The key API's operations for the browser app, so it can do everything an API client can
 * without a second implementation of each: the session guard (401, CSRF, frozen, role) runs
 * first, then the very route (schemas, handler, response). Errors take the session API's shape
 * (`{error, code}`); successes keep the key API's `{data, meta}` envelope.
 */
export function keyApiBridge(routes: readonly RouteDef[], deps: ApiDeps): Router<SessionState> {
  const router = new Router<SessionState>({ prefix: BRIDGE_PREFIX });
  for (const route of routes) {
    if (route.auth === 'none') continue; // public documents are served at /v1 already
    const access = { method: route.method, access: bridgedRole(route) };
    router.register(
      toRouterPath(route.path),
      [route.method],
      [
        sessionErrors(),
        sessionGuard(access, deps.db, deps.config),
        jsonBody(),
        async (ctx) => {
          ctx.state.auth = sessionCaller(ctx.state.session!);
          addLogBindings(ctx.state, { workspace_id: ctx.state.session!.workspace.id, user_id: ctx.state.session!.user.id });
          await route.run(ctx, deps, routes);
        },
      ],
    );
  }
  return router;
}
