import { loadCliConfig, ConfigError, type Config } from '../config';
import { createDb } from '../db/knex';
import { migrateLatest } from '../db/migrate';
import { adminCommands } from './admin.commands';
import { billingCommands } from './billing.commands';
import type { Command } from './command';
import { parseArgs, UsageError } from './args';
import { userCommands } from './users.commands';
import { opsCommands } from './ops.commands';
import { webhookCommands } from './webhooks.commands';

/**
 * The operator CLI: `npm run cli -- <group> <command> [options]`. Bad usage prints one line and
 * exits 2; a failure exits 1.
 */

const commands: Record<string, Command> = {
  async migrate(argv, { db, out }) {
    parseArgs(argv, {});
    const applied = await migrateLatest(db);
    out(applied.length ? `applied: ${applied.join(', ')}` : 'database schema is up to date');
  },
  ...adminCommands,
  ...opsCommands,
  ...webhookCommands,
  ...billingCommands,
  ...userCommands,
};

const USAGE = `usage: npm run cli -- <command> [options]
commands:
  migrate
  workspaces create --name N [--plan trial|starter|growth|enterprise|none] [--credits N] [--json]
  workspaces update ID [--api-access on|off] [--frozen on|off] [--plan P] [--plan-active on|off] [--rate-limit N] [--max-concurrent-searches N|plan] [--json]
  keys create --workspace ID --name N --scopes a,b|* [--funding workspace|contract_pool] [--env live|test] [--rate-limit N] [--expires-at ISO] [--json]
  keys list --workspace ID [--json]
  keys revoke KEY_ID [--json]
  credits grant --workspace ID --amount N [--bucket workspace|contract_pool] [--reason TEXT] [--json]
  billing top-ups --workspace ID [--json]
  corpus load [--size N] [--seed S] [--json]
  searches watch SEARCH_ID [--interval MS]
  shares expire PROJECT_ID [--at ISO | --clear] [--json]
  webhooks redeliver DELIVERY_ID [--json]
  users create --email E --password P --workspace ID --role operator|viewer|admin [--json]
  users add --email E --workspace ID --role operator|viewer|admin [--json]
  secrets reencrypt [--json]   (moves every secret from SECRETS_KEY_PREVIOUS to SECRETS_KEY)`;

export async function runCli(
  argv: string[],
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
  err: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
): Promise<number> {
  const key = argv.length >= 2 && commands[`${argv[0]} ${argv[1]}`] ? `${argv[0]} ${argv[1]}` : argv[0];
  const command = key ? commands[key] : undefined;
  if (argv[0] === 'help' || argv[0] === '--help') {
    out(USAGE);
    return 0;
  }
  if (!command) {
    err(key ? `error: unknown command "${argv.slice(0, 2).join(' ')}" (npm run cli -- help lists the commands)` : USAGE);
    return 2;
  }
  let config: Config;
  try {
    config = loadCliConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      err(`${error.message}\n(start \`npm run dev\` first, or set DATABASE_URL and SECRETS_KEY)`);
      return 2;
    }
    throw error;
  }
  const db = createDb(config.databaseUrl, 4);
  try {
    await command(argv.slice(key.split(' ').length), { config, db, out });
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      err(`error: ${error.message}`);
      return 2;
    }
    err(`error: ${(error as Error).message}`);
    return 1;
  } finally {
    await db.destroy();
  }
}

if (require.main === module) {
  void runCli(process.argv.slice(2)).then((code) => process.exit(code));
}
