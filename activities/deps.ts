import type { Config } from '../src/config';
import type { Db } from '../src/db/knex';
import type { Logger } from '../src/logger';
import type { WorkerMetrics } from './worker-metrics';

export interface ActivityDeps {
  config: Config;
  db: Db;
  logger: Logger;
  metrics: WorkerMetrics;
}
