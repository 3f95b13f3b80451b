import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { ProviderId } from './providers/provider-ids';

/** The only module that reads process.env. Everything else receives a Config. */

const DEFAULT_RETRY_SCHEDULE = '30,120,600,3600,21600,86400';

const secondsList = z
  .string()
  .trim()
  .regex(/^\d+(\s*,\s*\d+)*$/, 'must be comma-separated whole seconds, e.g. 30,120,600')
  .transform((s) => s.split(',').map((part) => Number(part.trim())));

const cidrList = z
  .string()
  .trim()
  .transform((s) => (s === '' ? [] : s.split(',').map((part) => part.trim())))
  .refine((list) => list.every((c) => /^[0-9a-fA-F:.]+\/\d{1,3}$/.test(c)), 'must be comma-separated CIDRs, e.g. 127.0.0.0/8');

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    HOST: z.string().min(1).default('0.0.0.0'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    DATABASE_URL: z.string({ error: 'is required (a postgres:// connection string)' }).regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection string'),
    DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
    TEMPORAL_ADDRESS: z
      .string()
      .regex(/^[^\s:]+:\d+$/, 'must be host:port')
      .default('localhost:7233'),
    TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
    TEMPORAL_TASK_QUEUE: z.string().min(1).default('sourcing'),
    PUBLIC_BASE_URL: httpUrl.optional(),
    API_URL: httpUrl.optional(),
    APP_URL: httpUrl.optional(),
    // `npm run dev` sets `vite`: the web app at /app is served by Vite (live reload) instead of dist/app.
    APP_DEV_SERVER: z.enum(['vite', 'off']).default('off'),
    SECRETS_KEY: z
      .string({ error: 'is required (32 random bytes, base64)' })
      .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes encoded as base64'),
    // Still read after a key rotation until `npm run cli -- secrets reencrypt` has moved every secret.
    SECRETS_KEY_PREVIOUS: z
      .string()
      .refine((v) => v === '' || Buffer.from(v, 'base64').length === 32, 'must be 32 bytes encoded as base64 (or empty)')
      .optional(),
    PEOPLEDATALABS_BASE_URL: httpUrl.default('https://api.peopledatalabs.com'),
    BRAVE_BASE_URL: httpUrl.default('https://api.search.brave.com'),
    OPENAI_BASE_URL: httpUrl.default('https://api.openai.com/v1'),
    HUNTER_BASE_URL: httpUrl.default('https://api.hunter.io'),
    PEOPLEDATALABS_API_KEY: z.string().optional(),
    BRAVE_API_KEY: z.string().optional(),
    OPENAI_API_KEY: z.string().optional(),
    HUNTER_API_KEY: z.string().optional(),
    OPENAI_MODEL: z.string().min(1).default('gpt-4o-mini'),
    // Downstream limits shared by every process (DESIGN.md §9); tests shorten the timeout.
    PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000),
    PROVIDER_SLOT_WAIT_MS: z.coerce.number().int().min(0).default(2_000),
    BRAVE_QPS: z.coerce.number().positive().max(1000).default(1),
    PEOPLEDATALABS_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(5),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    WEBHOOK_RETRY_SCHEDULE: secondsList.prefault(DEFAULT_RETRY_SCHEDULE),
    WEBHOOK_ALLOWED_PRIVATE_CIDRS: cidrList.prefault(''),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
    HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
    HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
    TRUST_PROXY: z.enum(['true', 'false']).default('false'),
    SEARCH_PAGE_DELAY_MS: z.coerce.number().int().min(0).default(0),
    BRIEF_READER_THREADS: z.coerce
      .number()
      .int()
      .min(1)
      .max(64)
      .default(Math.max(1, Math.min(4, os.availableParallelism() - 1))),
    BRIEF_READER_QUEUE: z.coerce.number().int().min(0).max(10_000).default(64),
    BRIEF_READ_TIMEOUT_MS: z.coerce.number().int().min(1).max(60_000).default(2_000),
    PROVIDER_CIRCUIT_FAILURES: z.coerce.number().int().min(1).default(5),
    PROVIDER_CIRCUIT_OPEN_MS: z.coerce.number().int().min(1).default(60_000),
    SWEEP_SCHEDULES_ON_START: z.enum(['true', 'false']).default('true'),
    // Seconds without a new rating before a search learns from its ratings (DESIGN.md §13); tests shorten it.
    CALIBRATION_QUIET_SECONDS: z.coerce.number().min(0).max(3600).default(2),
    // Tests and demos only: every monitor cadence (hour, day, week) becomes this many seconds.
    MONITOR_EVERY_SECONDS: z.coerce.number().int().min(1).max(604_800).optional(),
    UNAUTHENTICATED_RATE_LIMIT: z.coerce.number().int().min(1).default(120),
    // Failed session sign-ins per 15 minutes per client address and across all accounts (password spraying).
    SIGN_IN_IP_MAX_FAILURES: z.coerce.number().int().min(1).default(50),
    SIGN_IN_GLOBAL_MAX_FAILURES: z.coerce.number().int().min(1).default(500),
    PAYMENTS_PROVIDER: z.enum(['test', 'stripe']).default('test'),
    // Seconds an unpaid top-up stays payable (DESIGN.md §8: 24 h); tests scale it down.
    TOPUP_EXPIRY: z.coerce.number().int().min(1).default(86_400),
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_(test|live)_\S+$/, 'must be a Stripe secret key (sk_test_… or sk_live_…)')
      .optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_\S+$/, 'must be a Stripe webhook signing secret (whsec_…)')
      .optional(),
    // Where the Stripe SDK sends its calls; tests point it at stripe-mock.
    STRIPE_API_BASE: httpUrl.default('https://api.stripe.com'),
    USAGE_COUNTING: z.enum(['on', 'off']).default('on'),
    USAGE_FLUSH_INTERVAL_MS: z.coerce.number().int().min(100).default(5_000),
    METRICS_ENABLED: z.enum(['true', 'false']).default('true'),
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
    // OpenTelemetry traces (src/tracing): off unless a collector is there to take them.
    TRACING: z.enum(['on', 'off']).default('off'),
    TRACING_SAMPLE_RATIO: z.coerce.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1').default(1),
    TRACING_ZIPKIN_URL: httpUrl.default('http://localhost:9411/api/v2/spans'),
  })
  .superRefine((e, ctx) => {
    if (e.PAYMENTS_PROVIDER !== 'stripe') return;
    for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const) {
      if (!e[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required when PAYMENTS_PROVIDER=stripe' });
    }
  });

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  databaseUrl: string;
  databasePoolMax: number;
  temporal: { address: string; namespace: string; taskQueue: string };
  /** {base_url}: the key API root, ends in /v1. */
  publicBaseUrl: string;
  /** {api_url}: the session API lives under {api_url}/api. */
  apiUrl: string;
  /** {app_url}: share pages live under {app_url}/share/<token>. */
  appUrl: string;
  /** Serve the web app through Vite's dev server (live reload) rather than the built files. */
  appDevServer: boolean;
  secretsKey: Buffer;
  /** The key before the last rotation; decrypts what `secrets reencrypt` has not moved yet. */
  secretsKeyPrevious: Buffer | null;
  /** Third-party providers (DESIGN.md §9): base URL and the server-wide fallback key. */
  providers: Record<ProviderId, { baseUrl: string; apiKey: string | null }>;
  openaiModel: string;
  /** Upstream timeout, how long a call waits for a downstream slot, and the shared limits (DESIGN.md §9). */
  providerLimits: { timeoutMs: number; slotWaitMs: number; braveQps: number; peopleDataLabsConcurrency: number };
  logLevel: Env['LOG_LEVEL'];
  webhookRetryScheduleSeconds: number[];
  webhookAllowedPrivateCidrs: string[];
  shutdownTimeoutMs: number;
  /** A client must finish sending its headers within this (slow-loris), and its whole request within requestTimeoutMs. */
  http: { headersTimeoutMs: number; requestTimeoutMs: number };
  /** Take the client address from X-Forwarded-For (only behind a trusted proxy). */
  trustProxy: boolean;
  /** Requests per minute per client address for calls without a valid key. */
  unauthenticatedRateLimit: number;
  /** Failed session sign-ins allowed per 15 minutes per client address and across all accounts (the per-email limit is 10). */
  signIn: { ipMaxFailures: number; globalMaxFailures: number };
  /** Pause before each search page; 0 except in fault-injection tests. */
  searchPageDelayMs: number;
  /**
   * The brief reader's worker threads (src/briefs/brief-reader.ts): how many, how many briefs may
   * wait for one, and how long a read may take (waiting included) before it is answered 503.
   */
  briefReader: { threads: number; maxQueue: number; timeoutMs: number };
  /** Live searches' circuit breaker: consecutive provider failures that open it, and for how long. */
  providerCircuit: { failures: number; openMs: number };
  /** The worker process ensures the sweep Schedules of its task queue at start (outbox, stranded passes). */
  sweepSchedulesOnStart: boolean;
  /** Calibration waits this long after a search's last rating before it learns (src/searches/calibration.service.ts). */
  calibration: { quietSeconds: number };
  /** Set (tests and demos): every monitor runs this often, in seconds, whatever its cadence. */
  monitorEverySeconds: number | null;
  payments: {
    provider: 'test' | 'stripe';
    /** How long a top-up waits for payment before it expires (its workflow's durable timer). */
    topUpExpirySeconds: number;
    stripe: { secretKey?: string; webhookSecret?: string; apiBase: string };
  };
  usage: {
    /** Off only for benchmark comparisons: request counts are then not recorded. */
    counting: boolean;
    /** Request counts are kept in memory and written in one batch this often (and at shutdown). */
    flushIntervalMs: number;
  };
  metrics: {
    /** false: no /metrics anywhere and no per-request instrumentation. */
    enabled: boolean;
    /** Set: the API serves /metrics on this port (on HOST) instead of its own port. */
    apiPort?: number;
    /** The worker's own HTTP port: /metrics (ours and the Temporal SDK's), /livez, /readyz. */
    workerPort: number;
  };
  tracing: {
    /** Spans of requests, workflows, activities, SQL and outgoing calls, exported to Zipkin. */
    enabled: boolean;
    /** Share of new traces recorded (parent-based: a caller's decision is kept). */
    sampleRatio: number;
    /** Zipkin's span intake, e.g. http://localhost:9411/api/v2/spans. */
    zipkinUrl: string;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const trimSlash = (u: string) => u.replace(/\/+$/, '');

/** Validates an environment map; throws ConfigError naming every bad or missing variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || '(env)'} ${i.message}`));
  }
  const e = parsed.data;
  const local = `http://localhost:${e.PORT}`;
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    databaseUrl: e.DATABASE_URL,
    databasePoolMax: e.DATABASE_POOL_MAX,
    temporal: { address: e.TEMPORAL_ADDRESS, namespace: e.TEMPORAL_NAMESPACE, taskQueue: e.TEMPORAL_TASK_QUEUE },
    publicBaseUrl: trimSlash(e.PUBLIC_BASE_URL ?? `${local}/v1`),
    apiUrl: trimSlash(e.API_URL ?? local),
    appUrl: trimSlash(e.APP_URL ?? local),
    appDevServer: e.APP_DEV_SERVER === 'vite',
    secretsKey: Buffer.from(e.SECRETS_KEY, 'base64'),
    secretsKeyPrevious: e.SECRETS_KEY_PREVIOUS ? Buffer.from(e.SECRETS_KEY_PREVIOUS, 'base64') : null,
    providers: {
      peopledatalabs: { baseUrl: trimSlash(e.PEOPLEDATALABS_BASE_URL), apiKey: e.PEOPLEDATALABS_API_KEY || null },
      brave: { baseUrl: trimSlash(e.BRAVE_BASE_URL), apiKey: e.BRAVE_API_KEY || null },
      openai: { baseUrl: trimSlash(e.OPENAI_BASE_URL), apiKey: e.OPENAI_API_KEY || null },
      hunter: { baseUrl: trimSlash(e.HUNTER_BASE_URL), apiKey: e.HUNTER_API_KEY || null },
    },
    openaiModel: e.OPENAI_MODEL,
    providerLimits: {
      timeoutMs: e.PROVIDER_TIMEOUT_MS,
      slotWaitMs: e.PROVIDER_SLOT_WAIT_MS,
      braveQps: e.BRAVE_QPS,
      peopleDataLabsConcurrency: e.PEOPLEDATALABS_CONCURRENCY,
    },
    logLevel: e.LOG_LEVEL,
    webhookRetryScheduleSeconds: e.WEBHOOK_RETRY_SCHEDULE,
    webhookAllowedPrivateCidrs: e.WEBHOOK_ALLOWED_PRIVATE_CIDRS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    http: { headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS, requestTimeoutMs: Math.max(e.HTTP_REQUEST_TIMEOUT_MS, e.HTTP_HEADERS_TIMEOUT_MS) },
    trustProxy: e.TRUST_PROXY === 'true',
    unauthenticatedRateLimit: e.UNAUTHENTICATED_RATE_LIMIT,
    signIn: { ipMaxFailures: e.SIGN_IN_IP_MAX_FAILURES, globalMaxFailures: e.SIGN_IN_GLOBAL_MAX_FAILURES },
    searchPageDelayMs: e.SEARCH_PAGE_DELAY_MS,
    briefReader: { threads: e.BRIEF_READER_THREADS, maxQueue: e.BRIEF_READER_QUEUE, timeoutMs: e.BRIEF_READ_TIMEOUT_MS },
    providerCircuit: { failures: e.PROVIDER_CIRCUIT_FAILURES, openMs: e.PROVIDER_CIRCUIT_OPEN_MS },
    sweepSchedulesOnStart: e.SWEEP_SCHEDULES_ON_START === 'true',
    calibration: { quietSeconds: e.CALIBRATION_QUIET_SECONDS },
    monitorEverySeconds: e.MONITOR_EVERY_SECONDS ?? null,
    payments: {
      provider: e.PAYMENTS_PROVIDER,
      topUpExpirySeconds: e.TOPUP_EXPIRY,
      stripe: { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, apiBase: trimSlash(e.STRIPE_API_BASE) },
    },
    usage: { counting: e.USAGE_COUNTING === 'on', flushIntervalMs: e.USAGE_FLUSH_INTERVAL_MS },
    metrics: { enabled: e.METRICS_ENABLED === 'true', apiPort: e.METRICS_PORT, workerPort: e.WORKER_METRICS_PORT },
    tracing: { enabled: e.TRACING === 'on', sampleRatio: e.TRACING_SAMPLE_RATIO, zipkinUrl: e.TRACING_ZIPKIN_URL },
  };
}

const DEFAULT_DEV_DATA_DIR = path.resolve(__dirname, '..', '.data');

/** Where `npm run dev` records the addresses and secrets of the stack it started. */
export const devEnvFile = (dataDir: string) => path.join(dataDir, 'dev-env.json');

/**
 * The operator CLI runs beside `npm run dev`: variables the environment leaves unset are taken
 * from the dev stack's record, so `npm run cli -- …` needs no setup on a developer machine.
 */
export function loadCliConfig(env: NodeJS.ProcessEnv = process.env): Config {
  let devEnv: Record<string, string> = {};
  const file = devEnvFile(env.DEV_DATA_DIR || DEFAULT_DEV_DATA_DIR);
  if (!env.DATABASE_URL && fs.existsSync(file)) {
    devEnv = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
  }
  return loadConfig({ ...devEnv, ...env });
}

/** Exits the process with the config problems printed; for process entry points. */
export function loadConfigOrExit(load: () => Config = loadConfig): Config {
  try {
    return load();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
}

/** What the dev and test bootstraps (src/dev) take from the environment. */
export interface StackSettings {
  /** Set: use this database; unset: start embedded PostgreSQL. */
  databaseUrl?: string;
  /** Set: use this Temporal server; unset: start `temporal server start-dev`. */
  temporalAddress?: string;
  temporalNamespace: string;
  temporalCli: string;
  /** Dev stack state (embedded database, Temporal SQLite file, secrets); default `.data/`. */
  dataDir: string;
  port: number;
  postgresPort: number;
  temporalPort: number;
  temporalUiPort: number;
  logLevel: string;
  bootstrapStartedAt: number;
  /** Traces (TRACING, default on for the dev stack): Zipkin runs and the API and worker export to it. */
  tracing: {
    enabled: boolean;
    /** Set (TRACING_ZIPKIN_URL): spans go to that Zipkin; unset: the stack starts its own. */
    zipkinUrl?: string;
    /** Java and the Zipkin jar found by the bootstrap (scripts/lib/bootstrap.mjs); absent: no Zipkin here. */
    zipkin?: { java: string; jar: string };
    /** Where the stack's own Zipkin serves its UI and span intake (ZIPKIN_PORT). */
    zipkinPort: number;
  };
  /** The environment handed on to the API, worker and jest processes. */
  passthrough: NodeJS.ProcessEnv;
}

export function loadStackSettings(env: NodeJS.ProcessEnv = process.env): StackSettings {
  const problems: string[] = [];
  const portOf = (name: string, fallback: number) => {
    const value = Number(env[name] ?? fallback);
    if (!Number.isInteger(value) || value < 1 || value > 65535) problems.push(`${name} must be a port number, got ${env[name]}`);
    return value;
  };
  const ports = {
    port: portOf('PORT', 3000),
    postgresPort: portOf('POSTGRES_PORT', 5433),
    temporalPort: portOf('TEMPORAL_PORT', 7233),
    temporalUiPort: portOf('TEMPORAL_UI_PORT', 8233),
    zipkinPort: portOf('ZIPKIN_PORT', 9411),
  };
  if (env.TRACING && !['on', 'off'].includes(env.TRACING)) problems.push(`TRACING must be on or off, got ${env.TRACING}`);
  if (problems.length) throw new ConfigError(problems);
  const { zipkinPort, ...servicePorts } = ports;
  return {
    ...servicePorts,
    dataDir: env.DEV_DATA_DIR || DEFAULT_DEV_DATA_DIR,
    databaseUrl: env.DATABASE_URL || undefined,
    temporalAddress: env.TEMPORAL_ADDRESS || undefined,
    temporalNamespace: env.TEMPORAL_NAMESPACE || 'default',
    temporalCli: env.TEMPORAL_CLI || 'temporal',
    logLevel: env.LOG_LEVEL || 'info',
    bootstrapStartedAt: Number(env.BOOTSTRAP_STARTED_AT ?? Date.now()),
    tracing: {
      enabled: env.TRACING !== 'off',
      zipkinUrl: env.TRACING_ZIPKIN_URL || undefined,
      zipkin: env.ZIPKIN_JAVA && env.ZIPKIN_JAR ? { java: env.ZIPKIN_JAVA, jar: env.ZIPKIN_JAR } : undefined,
      zipkinPort,
    },
    passthrough: { ...env },
  };
}
