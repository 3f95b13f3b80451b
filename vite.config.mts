import path from 'node:path';
import { defineConfig } from 'vite';

/**
 * The web app (DESIGN.md §11): sources in web/, built into dist/app, served by the API at /app
 * (`npm run build` → `start:api`; `npm run dev` runs this config in middleware mode).
 */
export default defineConfig({
  root: path.resolve(import.meta.dirname, 'web'),
  base: '/app/',
  // JSX through Vite's own transform (no Babel plugin): React's automatic runtime.
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist', 'app'),
    emptyOutDir: true,
    assetsDir: 'assets',
    // Hashed asset names only; nothing inlined as a data: script.
    assetsInlineLimit: 0,
    rolldownOptions: {
      // React Query marks its modules "use client" for server components; meaningless in this SPA.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  server: {
    // The dev server (`npm run dev`) reads only the app's sources and its dependencies: never the
    // checkout's state (.data holds the dev stack's secrets and database), keys or env files,
    // whatever `/app/@fs/…` path a request names.
    fs: {
      strict: true,
      allow: [path.resolve(import.meta.dirname, 'web'), path.resolve(import.meta.dirname, 'node_modules')],
      deny: ['.env', '.env.*', '*.{crt,pem,key,p12,pfx}', '**/.data/**', '**/.git/**', '**/secrets*'],
    },
  },
  clearScreen: false,
  logLevel: 'warn',
});
