import type { Knex } from 'knex';

/**
 * One row per pass of a search: the launch, each project expansion, each database pass, each
 * applied scoring change. A pass carries the criteria it ran with (expansions broaden them),
 * its own counters and budget, and what the search looked like before, so a failed later pass
 * can put the search back as it was.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('search_passes', (t) => {
    t.uuid('search_id').notNullable().references('searches.id').onDelete('CASCADE');
    t.integer('pass').notNullable();
    t.text('kind').notNullable().checkIn(['launch', 'expansion', 'database_pass']);
    t.integer('level');
    t.jsonb('criteria').notNullable();
    t.jsonb('broadening');
    t.text('status').notNullable().checkIn(['queued', 'running', 'complete', 'failed']);
    t.integer('profiles_read').notNullable().defaultTo(0);
    t.integer('delivered').notNullable().defaultTo(0);
    t.integer('shortlisted').notNullable().defaultTo(0);
    t.text('stop_reason');
    t.text('outcome');
    t.jsonb('previous');
    t.text('failure_reason');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('closed_at', { useTz: true });
    t.primary(['search_id', 'pass']);
  });
  await knex.raw(`
    insert into search_passes (search_id, pass, kind, criteria, status, profiles_read, delivered, shortlisted, stop_reason, outcome, created_at, closed_at)
    select id, 1, 'launch', criteria, status, profiles_read, delivered, shortlisted, stop_reason, outcome, created_at, closed_at from searches`);
  await knex.schema.alterTable('searches', (t) => {
    // Scoring weights set by an applied scoring change (null: the defaults).
    t.jsonb('scoring_weights');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('searches', (t) => {
    t.dropColumn('scoring_weights');
  });
  await knex.schema.dropTable('search_passes');
}
