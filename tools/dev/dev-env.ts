import path from 'node:path';

/**
 * How `npm run dev` runs the API and the worker, apart from tools/dev/dev.ts (which starts the stack
 * when imported) so that bench/searches.bench.ts measures exactly what a newcomer runs.
 */

const ROOT = path.resolve(__dirname, '..', '..');

/** How `npm run dev` runs an entry point: the TypeScript source through tsx (bench/searches.bench.ts measures it too). */
export const devEntryArgs = (entry: 'api/server' | 'activities/worker') => ['--import', 'tsx', path.join(ROOT, `${entry}.ts`)];

/** The API's and worker's environment under `npm run dev` (bench/searches.bench.ts measures the same). */
export function devProcessEnv(opts: {
  passthrough: NodeJS.ProcessEnv;
  port: number;
  databaseUrl: string;
  temporalAddress: string;
  namespace: string;
  secretsKey: string;
  logLevel: string;
  /** Where spans go; undefined: tracing off (no Zipkin). */
  zipkinSpansUrl: string | undefined;
}): NodeJS.ProcessEnv {
  const { passthrough, zipkinSpansUrl } = opts;
  return {
    ...passthrough,
    NODE_ENV: passthrough.NODE_ENV ?? 'development',
    HOST: passthrough.HOST ?? '127.0.0.1',
    PORT: String(opts.port),
    DATABASE_URL: opts.databaseUrl,
    TEMPORAL_ADDRESS: opts.temporalAddress,
    TEMPORAL_NAMESPACE: opts.namespace,
    SECRETS_KEY: opts.secretsKey,
    LOG_LEVEL: opts.logLevel,
    // The web app at /app through Vite: edits under web/ reload the open page.
    APP_DEV_SERVER: passthrough.APP_DEV_SERVER ?? 'vite',
    // Every request, workflow and activity traced into Zipkin.
    TRACING: zipkinSpansUrl ? 'on' : 'off',
    ...(zipkinSpansUrl ? { TRACING_ZIPKIN_URL: zipkinSpansUrl, TRACING_SAMPLE_RATIO: passthrough.TRACING_SAMPLE_RATIO ?? '1' } : {}),
  };
}
