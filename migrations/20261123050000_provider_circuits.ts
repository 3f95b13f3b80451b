import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // The providers' circuit breakers (DESIGN.md §9), shared by every API process and worker: the
  // consecutive failed calls per provider endpoint, and until when live searches are refused.
  await knex.schema.createTable('provider_circuits', (t) => {
    t.text('pool').primary();
    t.integer('failures').notNullable().defaultTo(0);
    t.timestamp('open_until', { useTz: true });
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('provider_circuits');
}
