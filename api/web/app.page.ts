import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { send } from '@koa/send';
import type { Middleware } from 'koa';
import type { ApiState } from '../context';

/** The web app (DESIGN.md §11): sources in web/, built by `npm run build` into dist/app. */
export const APP_PATH = '/app';
const ROOT = path.resolve(__dirname, '..', '..');
/** Built files: beside the sources under tsx, beside the compiled server under dist/. */
export const APP_DIST_DIR =
  [path.join(ROOT, 'dist', 'app'), path.join(ROOT, 'app')].find((dir) => fs.existsSync(path.join(dir, 'index.html'))) ?? path.join(ROOT, 'dist', 'app');
/** Hashed file names change with their content: a year, never revalidated. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The app's CSP: same-origin scripts, styles and requests only, no inline scripts. Vite's dev
 * server injects CSS as <style> elements, so dev alone allows inline styles.
 */
export function appSecurityHeaders(dev: boolean): Record<string, string> {
  const style = dev ? "'self' 'unsafe-inline'" : "'self'";
  return {
    'Content-Security-Policy': `default-src 'none'; script-src 'self'; style-src ${style}; connect-src 'self'; img-src 'self' data:; font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
    'Referrer-Policy': 'same-origin',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
  };
}

const isAppPath = (p: string) => p === APP_PATH || p.startsWith(`${APP_PATH}/`);

/**
 * Serves the built app: hashed assets cached for a year, every other path under /app gets
 * index.html (client-side routes), never cached so a deploy is picked up at once.
 */
export function serveBuiltApp(dir = APP_DIST_DIR): Middleware<ApiState> {
  const headers = appSecurityHeaders(false);
  return async (ctx, next) => {
    if (!isAppPath(ctx.path) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    if (ctx.path === APP_PATH) return ctx.redirect(`${APP_PATH}/`);
    ctx.set(headers);
    const rel = ctx.path.slice(APP_PATH.length + 1);
    if (rel.startsWith('assets/')) {
      const served = await send(ctx, rel, { root: dir, setHeaders: (res) => res.setHeader('Cache-Control', IMMUTABLE) }).catch((err: { status?: number }) => {
        if (err.status === 404) return undefined;
        throw err;
      });
      if (!served) {
        ctx.status = 404;
        ctx.type = 'text/plain';
        ctx.body = 'Not found';
      }
      return;
    }
    if (!fs.existsSync(path.join(dir, 'index.html'))) {
      ctx.status = 503;
      ctx.type = 'text/plain';
      ctx.body = 'The web app is not built: run `npm run build` (or `npm run dev`).';
      return;
    }
    ctx.set('Cache-Control', 'no-cache');
    await send(ctx, 'index.html', { root: dir });
  };
}

/** What `npm run dev` serves at /app: Vite in middleware mode, its live-reload socket on the API's own server. */
export interface AppDevServer {
  middleware: Middleware<ApiState>;
  close(): Promise<void>;
}

interface ViteModule {
  createServer: (config: Record<string, unknown>) => Promise<{
    middlewares: (req: http.IncomingMessage, res: http.ServerResponse, next: (err?: unknown) => void) => void;
    close(): Promise<void>;
  }>;
}

type ViteServer = Awaited<ReturnType<ViteModule['createServer']>>;

/**
 * Vite starts on the first request under /app, not with the API: `npm run dev` is ready as soon
 * as before, and an API that nobody opens the app on never pays for it.
 */
export async function startAppDevServer(server: http.Server): Promise<AppDevServer> {
  let vite: Promise<ViteServer> | undefined;
  const start = async () => {
    // Vite is a dev dependency, loaded only here (never by `start:api`); its types need the
    // `bundler` resolution the server's tsconfig does not use, hence the narrow shape above.
    const vitePackage: string = 'vite';
    const { createServer }: ViteModule = await import(vitePackage);
    return createServer({ configFile: path.join(ROOT, 'vite.config.mts'), appType: 'spa', server: { middlewareMode: true, hmr: { server } } });
  };
  const headers = appSecurityHeaders(true);
  const middleware: Middleware<ApiState> = async (ctx, next) => {
    if (!isAppPath(ctx.path)) return next();
    // A failed start (e.g. a broken vite.config.mts) is tried again on the next request.
    vite ??= start().catch((err: unknown) => {
      vite = undefined;
      throw err;
    });
    const { middlewares } = await vite;
    ctx.set(headers);
    // Vite answers (and ends the response) or passes on; only then does Koa go on.
    const handled = await new Promise<boolean>((resolve, reject) => {
      ctx.res.once('finish', () => resolve(true));
      middlewares(ctx.req, ctx.res, (err?: unknown) =>
        err ? reject(err instanceof Error ? err : new Error('Vite could not serve the request', { cause: err })) : resolve(false),
      );
    });
    if (handled) ctx.respond = false;
    else await next();
  };
  return { middleware, close: async () => (vite ? (await vite).close() : undefined) };
}
