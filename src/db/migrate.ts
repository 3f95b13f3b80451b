import path from 'node:path';
import type { Db } from './knex';

// Migrations are TypeScript under tsx and compiled JavaScript under dist/; load whichever this is.
const isTs = __filename.endsWith('.ts');

export const migrationConfig = {
  directory: path.resolve(__dirname, '..', '..', 'migrations'),
  loadExtensions: [isTs ? '.ts' : '.js'],
  tableName: 'knex_migrations',
};

/** Applies every pending migration; returns the names applied. */
export async function migrateLatest(db: Db): Promise<string[]> {
  const [, applied] = (await db.migrate.latest(migrationConfig)) as [number, string[]];
  return applied;
}
