import type { Command } from 'commander';
import type { Config } from '../config';
import type { Db } from '../db/knex';

/** What every CLI action gets: its own module so command files do not import main.ts back. */
export interface CliContext {
  config: Config;
  db: Db;
  out: (line: string) => void;
  /** stdout is a terminal: progress bars are drawn only then. */
  tty: boolean;
}

/**
 * How a `*.commands.ts` module adds its commands: `register(program, host)` builds them with
 * commander and wraps each handler in `host.action`, which opens the database and config only
 * when the command runs (so `--help` and usage errors need neither).
 */
export interface CliHost {
  action<O>(handler: (ctx: CliContext, opts: O, args: string[]) => Promise<void>): (...commanderArgs: unknown[]) => Promise<void>;
}

export type RegisterCommands = (program: Command, host: CliHost) => void;
