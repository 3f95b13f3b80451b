import type { Middleware } from 'koa';
import { apiKeyRepository } from '../../src/db/api-key.repository';
import { rateLimitRepository } from '../../src/db/rate-limit.repository';
import { hashApiKey } from '../../src/domain/api-keys';
import { AppError } from '../../src/domain/errors';
import { isUuid } from '../../src/domain/ids';
import { hasScope } from '../../src/domain/scopes';
import type { ApiContext, ApiDeps, ApiState } from '../context';
import type { RouteDef } from '../route-def';
import { applyRateLimit, enforceRateLimit, ipBucket } from './rate-limit';
import { addLogBindings } from './request-id';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Runs before any other work of a route: key, rate limit and the version of a search the path
 * names (one round trip) → workspace access → scope. A refused
 * request never reaches the handler, so nothing is read, started or billed.
 */
export function authenticate(route: RouteDef, { db, logger, config }: ApiDeps): Middleware<ApiState> {
  const keys = apiKeyRepository(db);
  const limiter = rateLimitRepository(db);
  return async (rawCtx, next) => {
    const ctx = rawCtx as unknown as ApiContext;
    if (route.auth === 'none') {
      await applyRateLimit(ctx, db, [ipBucket(ctx, config.unauthenticatedRateLimit)]);
      return next();
    }
    const header = ctx.get('Authorization');
    const bearer = BEARER.exec(header)?.[1];
    if (!bearer) {
      await applyRateLimit(ctx, db, [ipBucket(ctx, config.unauthenticatedRateLimit)]);
      throw new AppError('missing_api_key', 401, 'Send your API key as Authorization: Bearer <API_KEY>');
    }
    // A search named in the path is read with the key (its version: all a cached people page needs).
    const searchId = (rawCtx.params as Record<string, string | undefined>).searchId;
    const { found, usable, limit } = await limiter.authenticate(hashApiKey(bearer), { searchId: searchId && isUuid(searchId) ? searchId : undefined });
    if (!found || !usable || !limit) {
      await applyRateLimit(ctx, db, [ipBucket(ctx, config.unauthenticatedRateLimit)]);
      throw new AppError('invalid_api_key', 401, 'The API key is invalid, expired or revoked');
    }
    const { key, workspace } = found;
    enforceRateLimit(ctx, limit);
    if (!workspace.api_access_enabled)
      throw new AppError('api_access_disabled', 403, 'API access is turned off for this workspace', { reason: 'api_access_off' });
    // A frozen workspace (an operator's hold, e.g. for an unpaid bill or abuse) may not spend or
    // change anything through its keys, reads included, as in the app (DESIGN.md §10): its keys
    // answer as if API access were off, until an operator unfreezes it.
    if (workspace.frozen)
      throw new AppError('api_access_disabled', 403, 'The workspace is frozen: its API keys are refused until an operator unfreezes it', { reason: 'frozen' });
    if (route.auth !== 'any' && !hasScope(key.scopes, route.auth)) {
      throw new AppError('insufficient_scope', 403, `This operation needs the ${route.auth} scope`, { required_scope: route.auth });
    }
    ctx.state.auth = found;
    addLogBindings(ctx.state, { workspace_id: workspace.id, key_id: key.id });
    // last_used_at is for humans: refresh it at most once a minute, skipping the write otherwise.
    if (!key.last_used_at || Date.now() - key.last_used_at.getTime() > 60_000) {
      void keys.touchLastUsed(key.id).catch((err) => logger.warn({ err }, 'could not record key use'));
    }
    await next();
  };
}
