import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import type { Config } from '../config';
import { AppError } from '../domain/errors';
import { extractCriteria, type Extraction } from './reader';

/**
 * Reads job descriptions (`jd_text`, the app's built-in intake) off the API's event loop: a pool
 * of worker threads (piscina) sized by config, a bounded queue, and a time budget per read.
 * A read that cannot finish within the budget, or find a place in the queue, is answered
 * 503 `brief_reader_busy` with Retry-After; a thread still busy at the deadline is ended, so
 * nothing a brief does can hold the API or a thread for longer.
 */
export interface BriefReader {
  read(text: string): Promise<Extraction>;
  /** Starts the threads and loads their reference data now instead of at the first read (the production API does, at start). */
  warm(): Promise<void>;
  close(): Promise<void>;
}

const RETRY_AFTER_SECONDS = 2;

const busy = (why: string) =>
  new AppError(
    'brief_reader_busy',
    503,
    `The job description could not be read now (${why}); retry shortly, or send criteria instead`,
    { retry_after_seconds: RETRY_AFTER_SECONDS },
    { 'Retry-After': String(RETRY_AFTER_SECONDS) },
  );

/**
 * The worker module beside this one: compiled JavaScript in production (dist/), TypeScript in
 * development and tests, where the thread loads it through tsx as the process does.
 */
function workerFile(): { filename: string; execArgv: string[] } {
  const ext = path.extname(__filename);
  const filename = path.join(__dirname, `read-brief.worker${ext}`);
  if (ext !== '.ts') return { filename, execArgv: [] };
  return { filename, execArgv: ['--import', pathToFileURL(require.resolve('tsx')).href] };
}

/** How long threads may take to start and load the reference data (gazetteer, O*NET vocabulary: a few seconds on a busy machine). */
const START_TIMEOUT_MS = 60_000;

export function createBriefReader(settings: Config['briefReader']): BriefReader {
  let pool: Piscina | undefined;
  let ready: Promise<void> | undefined;
  const open = () => {
    if (!pool) {
      const { filename, execArgv } = workerFile();
      pool = new Piscina({
        filename,
        execArgv,
        minThreads: settings.threads,
        maxThreads: settings.threads,
        maxQueue: settings.maxQueue,
        // No idle timeout: the reference data a thread loads is kept for the next brief.
        idleTimeout: Number.POSITIVE_INFINITY,
      });
      // Every thread loads the reference data once, before the first brief's budget starts.
      const started = pool;
      ready = Promise.all(Array.from({ length: settings.threads }, () => started.run('', { signal: AbortSignal.timeout(START_TIMEOUT_MS) }))).then(
        () => undefined,
        () => undefined,
      );
    }
    return pool;
  };
  return {
    async read(text) {
      const p = open();
      await ready;
      if (settings.maxQueue > 0 && p.queueSize >= settings.maxQueue) throw busy('every reader is busy');
      try {
        return (await p.run(text, { signal: AbortSignal.timeout(settings.timeoutMs) })) as Extraction;
      } catch (err) {
        if ((err as Error).name === 'AbortError' || (err as Error).name === 'TimeoutError') throw busy(`no answer within ${settings.timeoutMs} ms`);
        if (/queue is at limit/i.test((err as Error).message)) throw busy('every reader is busy');
        throw err;
      }
    },
    async warm() {
      open();
      await ready;
    },
    async close() {
      await pool?.destroy();
      pool = undefined;
    },
  };
}

/**
 * The same reading on the caller's thread: for tools that read briefs in bulk outside a server
 * (the quality benchmark), where there is no event loop to protect.
 */
export const inlineBriefReader: BriefReader = {
  read: async (text) => extractCriteria(text),
  warm: async () => undefined,
  close: async () => undefined,
};
