import { Command, CommanderError } from 'commander';
import { loadCliConfig, ConfigError } from '../config';
import { createDb, type Db } from '../db/knex';
import { migrateLatest } from '../db/migrate';
import { registerAdminCommands } from './admin.commands';
import { registerBillingCommands } from './billing.commands';
import { UsageError } from './args';
import type { CliContext, CliHost, RegisterCommands } from './command';
import { registerMonitorCommands } from './monitors.commands';
import { registerOpsCommands } from './ops.commands';
import { registerUserCommands } from './users.commands';
import { registerWebhookCommands } from './webhooks.commands';

/**
 * The operator CLI: `npm run cli -- <group> <command> [options]`, every command and group
 * answering `--help`. Exit codes: 0 done (and --help), 2 bad usage or configuration (one line
 * on stderr; a group without its subcommand prints its help there), 1 a failure.
 */

const registerMigrate: RegisterCommands = (program, host) => {
  program
    .command('migrate')
    .description('apply pending database migrations')
    .action(
      host.action(async (ctx) => {
        const applied = await migrateLatest(ctx.db);
        ctx.out(applied.length ? `applied: ${applied.join(', ')}` : 'database schema is up to date');
      }),
    );
};

/** Every command module; a new one is a `register…Commands` function added here. */
const COMMAND_MODULES: RegisterCommands[] = [
  registerMigrate,
  registerAdminCommands,
  registerOpsCommands,
  registerWebhookCommands,
  registerBillingCommands,
  registerUserCommands,
  registerMonitorCommands,
];

/** Thrown by `host.action` when the configuration is missing or bad (exit 2 with a hint). */
class CliConfigError extends Error {}

export function buildProgram(host: CliHost, out: (text: string) => void, err: (text: string) => void): Command {
  const program = new Command('npm run cli --')
    .description('Operator CLI of the candidate-sourcing service (database from DATABASE_URL, or the running `npm run dev` stack)')
    // Settings below are inherited by every command added after them.
    .exitOverride()
    .showSuggestionAfterError()
    .configureOutput({ writeOut: (s) => out(s.trimEnd()), writeErr: (s) => err(s.trimEnd()) });
  for (const register of COMMAND_MODULES) register(program, host);
  return program;
}

export async function runCli(
  argv: string[],
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
  err: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
  { tty = false }: { tty?: boolean } = {},
): Promise<number> {
  let db: Db | undefined;
  const host: CliHost = {
    action:
      (handler) =>
      async (...commanderArgs) => {
        const command = commanderArgs[commanderArgs.length - 1] as Command;
        let ctx: CliContext;
        try {
          const config = loadCliConfig();
          db = createDb(config.databaseUrl, 4);
          ctx = { config, db, out, tty };
        } catch (error) {
          if (error instanceof ConfigError) throw new CliConfigError(`${error.message}\n(start \`npm run dev\` first, or set DATABASE_URL and SECRETS_KEY)`);
          throw error;
        }
        await handler(ctx, command.opts() as Parameters<typeof handler>[1], command.processedArgs as string[]);
      },
  };
  try {
    await buildProgram(host, out, err).parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    // Commander has already printed its message (or the help) through configureOutput.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof UsageError || error instanceof CliConfigError) {
      err(error instanceof UsageError ? `error: ${error.message}` : error.message);
      return 2;
    }
    err(`error: ${(error as Error).message}`);
    return 1;
  } finally {
    await db?.destroy();
  }
}

if (require.main === module) {
  void runCli(process.argv.slice(2), undefined, undefined, { tty: Boolean(process.stdout.isTTY) }).then((code) => process.exit(code));
}
