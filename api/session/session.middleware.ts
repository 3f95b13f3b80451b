import type { Middleware, ParameterizedContext } from 'koa';
import type { Config } from '../../src/config';
import type { Db } from '../../src/db/knex';
import type { SessionWithContext } from '../../src/db/session.repository';
import { AppError } from '../../src/domain/errors';
import { databaseUnavailableError, isDatabaseUnavailable } from '../middleware/errors';
import { resolveSession, roleAtLeast } from '../../src/users/users.service';
import type { ApiState } from '../context';
import type { SessionRouteDef } from './session-route-def';

export const SESSION_COOKIE = 'sid';

export interface SessionState extends ApiState {
  session?: SessionWithContext;
}

/**
 * Session-API error shape (spec "Session API errors"): `{error: "<human message>", code?}`, plus
 * `problems` (`[{field, message}]`) on a validation failure so a form can place each one.
 * A database outage is 503 `service_unavailable` with Retry-After, as on the key API. Other
 * unexpected failures are 500 with the underlying message, as the spec asks, and are logged.
 */
export function sessionErrors(): Middleware<SessionState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (caught) {
      const err = isDatabaseUnavailable(caught) ? databaseUnavailableError() : caught;
      if (err instanceof AppError) {
        if (err.status >= 500) ctx.state.log.warn({ code: err.code, status: err.status, msg: err.message }, 'session request failed');
        for (const [name, value] of Object.entries(err.headers)) ctx.set(name, value);
        ctx.status = err.status;
        const problems = err.status === 400 ? err.details?.problems : undefined;
        ctx.body = { error: err.message, ...(err.code ? { code: err.code } : {}), ...(Array.isArray(problems) ? { problems } : {}) };
        return;
      }
      const status = (err as { status?: number }).status;
      if (typeof status === 'number' && status >= 400 && status < 500) {
        ctx.status = status;
        ctx.body = { error: (err as Error).message };
        return;
      }
      ctx.state.log.error({ err }, 'session request failed');
      ctx.status = 500;
      ctx.body = { error: (err as Error)?.message || 'Internal server error' };
    }
  };
}

/** `sid`: HttpOnly, SameSite=Lax, Path=/, Secure when the app is served over https. */
export function setSessionCookie(ctx: ParameterizedContext, config: Config, token: string, expires: Date): void {
  const secure = new URL(config.appUrl).protocol === 'https:';
  // Behind TLS-terminating proxies Koa sees http; the app URL decides, not the socket.
  if (secure) (ctx.cookies as unknown as { secure: boolean }).secure = true;
  ctx.cookies.set(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', path: '/', secure, expires, overwrite: true });
}

export function clearSessionCookie(ctx: ParameterizedContext, config: Config): void {
  setSessionCookie(ctx, config, '', new Date(0));
}

/** The origins a cookie-authenticated write may come from: the app's and the API's. */
export const trustedOrigins = (config: Config) => new Set([new URL(config.appUrl).origin, new URL(config.apiUrl).origin]);

/**
 * Order: session (401) → CSRF (403) → frozen (403 `frozen`) → role (403 `forbidden`). A refused
 * request never reaches the body parser or the handler.
 */
export function sessionGuard(
  route: Pick<SessionRouteDef, 'access' | 'allowedWhenFrozen'> & { method: string },
  db: Db,
  config: Config,
): Middleware<SessionState> {
  const origins = trustedOrigins(config);
  return async (ctx, next) => {
    // Writes from another site: refuse when the browser says where the request came from, by its
    // Origin or, when a browser sends none, by Sec-Fetch-Site (which a page cannot forge).
    if (route.method !== 'GET') {
      const origin = ctx.get('Origin');
      if ((origin && !origins.has(origin)) || ctx.get('Sec-Fetch-Site').toLowerCase() === 'cross-site') {
        throw new AppError('csrf', 403, 'Cross-site request refused');
      }
    }
    if (route.access === 'public') return next();
    const token = ctx.cookies.get(SESSION_COOKIE);
    const session = token ? await resolveSession(db, token) : undefined;
    if (!session) throw new AppError(null, 401, 'Sign in required');
    ctx.state.session = session;
    setSessionCookie(ctx, config, token!, session.session.expires_at); // the cookie slides with the session
    if (session.workspace.frozen && !route.allowedWhenFrozen) throw new AppError('frozen', 403, 'This workspace is frozen');
    if (!roleAtLeast(session.role, route.access)) throw new AppError('forbidden', 403, `This needs the ${route.access} role; you are ${session.role}`);
    await next();
  };
}
