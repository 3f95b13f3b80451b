import type { Config } from '../config';
import type { Db } from '../db/knex';

/** What every CLI command gets: its own module so command files do not import main.ts back. */
export interface CliContext {
  config: Config;
  db: Db;
  out: (line: string) => void;
}

export type Command = (argv: string[], ctx: CliContext) => Promise<void>;
