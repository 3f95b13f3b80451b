import type { ProcessGroup } from './processes';
import { waitFor } from './processes';

export interface ZipkinOptions {
  /** Java 17+ and the zipkin-server exec jar (found or fetched by scripts/lib/bootstrap.mjs). */
  java: string;
  jar: string;
  port: number;
  quiet?: boolean;
}

export interface ZipkinHandle {
  /** The UI (and its API, `/api/v2/traces`). */
  url: string;
  /** Where the API and worker send their spans (TRACING_ZIPKIN_URL). */
  spansUrl: string;
  pid: number | undefined;
}

/** Spans kept in memory (oldest dropped first): hours of a developer's searches in a few hundred MB of heap. */
const MAX_SPANS = 200_000;

/**
 * Zipkin's server for the dev stack, the production-like stack and the tracing test: in-memory
 * storage (traces last until it stops), on 127.0.0.1 only, with a small heap and the JIT's quick
 * tier (it starts in seconds and idles near zero CPU). Resolves once /health answers.
 */
export async function startZipkin(group: ProcessGroup, opts: ZipkinOptions): Promise<ZipkinHandle> {
  const args = [
    '-Xms64m',
    '-Xmx768m',
    '-XX:+UseSerialGC',
    '-XX:TieredStopAtLevel=1',
    '-jar',
    opts.jar,
    `--armeria.ports[0].port=${opts.port}`,
    '--armeria.ports[0].ip=127.0.0.1',
    '--armeria.ports[0].protocols[0]=http',
    '--zipkin.storage.type=mem',
    `--zipkin.storage.mem.max-spans=${MAX_SPANS}`,
  ];
  const child = group.spawn('zipkin', opts.java, args, { quiet: opts.quiet });
  const url = `http://127.0.0.1:${opts.port}`;
  await waitFor(
    `Zipkin on ${url}`,
    async () => {
      if (child.exitCode !== null) throw new Error(`zipkin exited with code ${child.exitCode}`);
      return (await fetch(`${url}/health`).catch(() => null))?.ok ?? false;
    },
    120_000,
    250,
  );
  return { url, spansUrl: `${url}/api/v2/spans`, pid: child.pid };
}
