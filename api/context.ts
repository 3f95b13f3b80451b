import type { ParameterizedContext } from 'koa';
import type { Config } from '../src/config';
import type { Db } from '../src/db/knex';
import type { Logger } from '../src/logger';
import type { Temporal } from '../src/temporal/client';

/** What the API process hands to every route. */
export interface ApiDeps {
  config: Config;
  db: Db;
  temporal: Temporal;
  logger: Logger;
}

export interface ApiState {
  requestId: string;
  log: Logger;
  /** Parsed JSON body; undefined when the request had none. */
  body?: unknown;
}

export type ApiContext = ParameterizedContext<ApiState> & { params: Record<string, string> };
