import { createDb } from '../../src/db/knex';
import { migrateLatest } from '../../src/db/migrate';
import { startEmbeddedPostgres, type PostgresHandle } from './embedded-postgres';
import { ProcessGroup } from './processes';
import { startTemporalDevServer, type TemporalServerHandle } from './temporal-server';
import { startZipkin, type ZipkinHandle, type ZipkinOptions } from './zipkin-server';

export interface InfrastructureOptions {
  /** Use this database instead of starting one. */
  databaseUrl?: string;
  /** Use this Temporal server instead of starting one. */
  temporalAddress?: string;
  temporalCli: string;
  namespace: string;
  postgres: { dataDir: string; port: number; database: string; persistent: boolean; fast?: boolean; settings?: Record<string, string> };
  temporal: { port: number; uiPort: number | null; httpPort: number; metricsPort: number; dbFile: string | null };
  /** Also start Zipkin (the trace viewer) with these. */
  zipkin?: Omit<ZipkinOptions, 'quiet'>;
  quiet?: boolean;
  log: (msg: string) => void;
}

export interface Infrastructure {
  databaseUrl: string;
  temporalAddress: string;
  temporalUiUrl: string | null;
  postgres: PostgresHandle | null;
  temporal: TemporalServerHandle | null;
  zipkin: ZipkinHandle | null;
  group: ProcessGroup;
  /** Set once a managed process died on its own. */
  failure: Promise<string>;
  stop(): Promise<void>;
}

/**
 * Postgres and Temporal (and Zipkin when asked) for dev and test runs: each is started only when
 * no address is given, all start in parallel, then the migrations run.
 */
export async function startInfrastructure(opts: InfrastructureOptions): Promise<Infrastructure> {
  let reportFailure: (msg: string) => void = () => undefined;
  const failure = new Promise<string>((resolve) => (reportFailure = resolve));
  const group = new ProcessGroup((name, code) => reportFailure(`${name} exited unexpectedly (code ${code})`));

  const postgresStart = opts.databaseUrl
    ? Promise.resolve(null)
    : startEmbeddedPostgres({ ...opts.postgres, log: opts.quiet ? undefined : (line) => opts.log(`[postgres] ${line}`) });
  const temporalStart = opts.temporalAddress
    ? Promise.resolve(null)
    : startTemporalDevServer(group, { cli: opts.temporalCli, namespace: opts.namespace, quiet: opts.quiet, ...opts.temporal });

  const zipkinStart = opts.zipkin ? startZipkin(group, { ...opts.zipkin, quiet: opts.quiet }) : Promise.resolve(null);

  const [postgresResult, temporalResult, zipkinResult] = await Promise.allSettled([postgresStart, temporalStart, zipkinStart]);
  const postgres = postgresResult.status === 'fulfilled' ? postgresResult.value : null;
  const temporal = temporalResult.status === 'fulfilled' ? temporalResult.value : null;
  const zipkin = zipkinResult.status === 'fulfilled' ? zipkinResult.value : null;
  const stop = async () => {
    await group.stopAll();
    await postgres?.stop();
  };
  const results = [postgresResult, temporalResult, zipkinResult];
  if (results.some((r) => r.status === 'rejected')) {
    await stop();
    const reasons = results.filter((r) => r.status === 'rejected').map((r) => String(r.reason?.message ?? r.reason));
    throw new Error(reasons.join('; '));
  }

  const databaseUrl = opts.databaseUrl ?? postgres!.url;
  const db = createDb(databaseUrl, 2);
  try {
    const applied = await migrateLatest(db);
    opts.log(applied.length ? `applied ${applied.length} migration(s)` : 'database schema is up to date');
  } catch (err) {
    await stop();
    throw err;
  } finally {
    await db.destroy();
  }

  return {
    databaseUrl,
    temporalAddress: opts.temporalAddress ?? temporal!.address,
    temporalUiUrl: temporal?.uiUrl ?? null,
    postgres,
    temporal,
    zipkin,
    group,
    failure,
    stop,
  };
}
