import { loadCliConfig, ConfigError, type Config } from '../config';
import { createDb, type Db } from '../db/knex';
import { migrateLatest } from '../db/migrate';
import { parseArgs, UsageError } from './args';

/**
 * The operator CLI: `npm run cli -- <group> <command> [options]`. Bad usage prints one line and
 * exits 2; a failure exits 1.
 */

export interface CliContext {
  config: Config;
  db: Db;
  out: (line: string) => void;
}

type Command = (argv: string[], ctx: CliContext) => Promise<void>;

const commands: Record<string, Command> = {
  async migrate(argv, { db, out }) {
    parseArgs(argv, {});
    const applied = await migrateLatest(db);
    out(applied.length ? `applied: ${applied.join(', ')}` : 'database schema is up to date');
  },
};

const USAGE = `usage: npm run cli -- <command> [options]
commands:
  migrate`;

export async function runCli(argv: string[], out: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Promise<number> {
  const key = argv.length >= 2 && commands[`${argv[0]} ${argv[1]}`] ? `${argv[0]} ${argv[1]}` : argv[0];
  const command = key ? commands[key] : undefined;
  if (!command) {
    process.stderr.write(`${key ? `unknown command: ${argv.slice(0, 2).join(' ')}` : 'no command given'}\n${USAGE}\n`);
    return 2;
  }
  let config: Config;
  try {
    config = loadCliConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n(start \`npm run dev\` first, or set DATABASE_URL and SECRETS_KEY)\n`);
      return 2;
    }
    throw err;
  }
  const db = createDb(config.databaseUrl, 4);
  try {
    await command(argv.slice(key.split(' ').length), { config, db, out });
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`error: ${err.message}\n`);
      return 2;
    }
    process.stderr.write(`error: ${(err as Error).message}\n`);
    return 1;
  } finally {
    await db.destroy();
  }
}

if (require.main === module) {
  runCli(process.argv.slice(2)).then((code) => process.exit(code));
}
