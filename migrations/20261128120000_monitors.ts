import type { Knex } from 'knex';

/**
 * Monitors (DESIGN.md §13): a search re-run on a cadence by its own Temporal Schedule
 * (`monitor-<id>`), each run a new pass (kind `monitor`) over people the project has not seen.
 * `monitor_runs` has one row per run of the Schedule, keyed by the run's workflow id, so a retried
 * activity or workflow books one pass and writes one `monitor.matched` at most.
 */

/** The values a `kind in (…)` check of search_passes allows now, so other migrations' kinds are kept. */
async function passKinds(knex: Knex): Promise<{ name: string; kinds: string[] }> {
  const { rows } = await knex.raw(`
    select conname, pg_get_constraintdef(oid) as def from pg_constraint
     where conrelid = 'search_passes'::regclass and contype = 'c' and pg_get_constraintdef(oid) like '%kind%'`);
  const [row] = rows as { conname: string; def: string }[];
  return { name: row.conname, kinds: [...row.def.matchAll(/'([^']+)'::text/g)].map((m) => m[1]) };
}

async function setPassKinds(knex: Knex, change: (kinds: string[]) => string[]): Promise<void> {
  const { name, kinds } = await passKinds(knex);
  const next = [...new Set(change(kinds))];
  // DDL takes no bind parameters: the values are quoted here (they come from the constraint itself).
  const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;
  const identifier = `"${name.replace(/"/g, '""')}"`;
  await knex.raw(`alter table search_passes drop constraint ${identifier}`);
  await knex.raw(`alter table search_passes add constraint ${identifier} check (kind in (${next.map(literal).join(', ')}))`);
}

export async function up(knex: Knex): Promise<void> {
  await setPassKinds(knex, (kinds) => [...kinds, 'monitor']);

  await knex.schema.createTable('monitors', (t) => {
    t.uuid('id').primary();
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    // One monitor per search: a second one would run the same passes twice.
    t.uuid('search_id').notNullable().unique().references('searches.id').onDelete('CASCADE');
    t.text('every').notNullable().checkIn(['hour', 'day', 'week']);
    t.text('status').notNullable().defaultTo('active').checkIn(['active', 'paused']);
    t.text('paused_reason');
    // Runs fall on anchor_at + k × cadence (the Schedule interval's offset): next_run_at needs no Temporal call.
    t.timestamp('anchor_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.integer('runs').notNullable().defaultTo(0);
    t.integer('new_people_total').notNullable().defaultTo(0);
    t.timestamp('last_run_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['workspace_id', 'created_at']);
    t.index(['project_id', 'created_at']);
  });

  await knex.schema.createTable('monitor_runs', (t) => {
    t.uuid('monitor_id').notNullable().references('monitors.id').onDelete('CASCADE');
    // The workflow id the Schedule gave the run (`monitor-<id>-<scheduled time>`).
    t.text('run_id').notNullable();
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('search_id').notNullable().references('searches.id').onDelete('CASCADE');
    t.integer('pass');
    t.text('status').notNullable().checkIn(['running', 'matched', 'no_new_people', 'failed', 'skipped', 'paused']);
    t.text('reason');
    t.integer('new_people').notNullable().defaultTo(0);
    t.text('event_id');
    t.timestamp('started_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true });
    t.primary(['monitor_id', 'run_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('monitor_runs');
  await knex.schema.dropTable('monitors');
  await knex('search_passes').where({ kind: 'monitor' }).delete();
  await setPassKinds(knex, (kinds) => kinds.filter((k) => k !== 'monitor'));
}
