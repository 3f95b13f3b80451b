import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { loadConfig, type Config } from '../../src/config';
import { createDb, type Db } from '../../src/db/knex';
import { createLogger } from '../../src/logger';
import { createTemporal, type Temporal } from '../../src/temporal/client';
import { startApiServer, type ApiServer } from '../../api/api-server';
import { startWorker, type WorkerHandle } from '../../activities/worker-process';
import { checkContract } from './contract';

/**
 * Every request of the suite comes from 127.0.0.1, and the keyless per-address bucket and the
 * sign-in failures live in the shared database, so every API the suite starts (in process or
 * spawned) must get these limits: one left at the default (120/min) answers 429 once the rest of
 * the suite has made 120 keyless calls that minute, and the sign-in ceilings would count every
 * test's wrong passwords together. The per-address limit is tested with its own addresses, the
 * sign-in ceilings at their defaults on a database of their own (sign-in-limits.test.ts).
 */
export const TEST_RATE_LIMIT_ENV = {
  UNAUTHENTICATED_RATE_LIMIT: '1000000',
  SIGN_IN_IP_MAX_FAILURES: '1000000',
  SIGN_IN_GLOBAL_MAX_FAILURES: '1000000',
} as const;

/** Config for an in-process API/worker against the run's real Postgres and Temporal server. */
export function testConfig(env: NodeJS.ProcessEnv = {}): Config {
  return loadConfig({
    ...process.env,
    HOST: '127.0.0.1',
    PORT: '0',
    // Each stack gets its own task queue so test files running in parallel never share workers.
    TEMPORAL_TASK_QUEUE: `test-${randomUUID()}`,
    SHUTDOWN_TIMEOUT_MS: '2000',
    ...TEST_RATE_LIMIT_ENV,
    ...env,
  });
}

export function workflowBundlePath(): string {
  return path.join(process.env.TEST_RUN_DIR!, 'workflow-bundle.js');
}

export interface TestStack {
  config: Config;
  db: Db;
  temporal: Temporal;
  api: ApiServer;
  worker: WorkerHandle | null;
  url: string;
  request: (method: string, path: string, opts?: RequestOptions) => Promise<TestResponse>;
  stop(): Promise<void>;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  body?: unknown;
  /** Sent as-is instead of JSON-encoding `body`. */
  rawBody?: string;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export async function request(baseUrl: string, method: string, urlPath: string, opts: RequestOptions = {}): Promise<TestResponse> {
  const headers: Record<string, string> = { ...opts.headers };
  let payload: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    payload = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${baseUrl}${urlPath}`, { method, headers, body: payload });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  const response = { status: res.status, headers: res.headers, body, text };
  // Every response of a route of the table is checked against what the route declares.
  checkContract(method, urlPath, response);
  return response;
}

/** An API server and (unless `worker: false`) a worker, in this process, on a private task queue. */
export async function startTestStack(opts: { worker?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<TestStack> {
  const config = testConfig(opts.env);
  const logger = createLogger(config.logLevel, 'test');
  const db = createDb(config.databaseUrl, 10, logger, { taskQueue: config.temporal.taskQueue });
  const temporal = createTemporal(config);
  const worker =
    opts.worker === false ? null : await startWorker({ config, db, logger, workflowBundle: { code: fs.readFileSync(workflowBundlePath(), 'utf8') } });
  const api = await startApiServer({ config, db, temporal, logger });
  return {
    config,
    db,
    temporal,
    api,
    worker,
    url: api.url,
    request: (method, p, o) => request(api.url, method, p, o),
    async stop() {
      await api.close();
      await worker?.shutdown();
      await temporal.close();
      await db.destroy();
    },
  };
}
