import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // A live pass's result pages as the provider answered them: a retried or resumed page
  // activity reads its page from here instead of paying the provider for the same search again.
  await knex.schema.createTable('live_search_pages', (t) => {
    t.uuid('search_id').notNullable().references('searches.id').onDelete('CASCADE');
    t.integer('pass').notNullable();
    t.integer('page').notNullable();
    t.jsonb('results').notNullable();
    t.timestamp('fetched_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['search_id', 'pass', 'page']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('live_search_pages');
}
