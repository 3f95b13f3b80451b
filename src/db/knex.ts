import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import type { Logger } from '../logger';

export type Db = Knex;

// Postgres returns int8 (bigint, count(*)) as strings; our counts always fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/**
 * `taskQueue`: the Temporal task queue of this process, set on every connection as
 * `sourcing.task_queue` so the outbox events it writes are fanned out by that queue's workers
 * (migration 20261122000200).
 */
export function createDb(databaseUrl: string, poolMax = 10, logger?: Logger, opts: { taskQueue?: string } = {}): Db {
  const log = logger?.child({ component: 'knex' });
  return knexFactory({
    client: 'pg',
    connection: {
      connectionString: databaseUrl,
      application_name: 'candidate-sourcing',
      ...(opts.taskQueue ? { options: `-c sourcing.task_queue=${opts.taskQueue.replace(/[\\ ]/g, '\\$&')}` } : {}),
    },
    pool: { min: 0, max: poolMax },
    acquireConnectionTimeout: 10_000,
    // knex prints to the console by default; keep everything in the structured log.
    log: {
      warn: (m: unknown) => log?.warn({ detail: m }, 'knex warning'),
      error: (m: unknown) => log?.error({ detail: m }, 'knex error'),
      deprecate: (m: unknown) => log?.warn({ detail: m }, 'knex deprecation'),
      debug: () => undefined,
    },
  });
}
