import type { Knex } from 'knex';

/**
 * Providers and data endpoints (DESIGN.md §9): the built-in companies and web pages, the shared
 * downstream limits, stored responses for idempotent data calls, and data prices per plan.
 */
export async function up(knex: Knex): Promise<void> {
  // Built-in company source (loaded with the corpus from src/corpus/companies.ts).
  await knex.schema.createTable('companies', (t) => {
    t.text('id').primary();
    t.text('name').notNullable();
    t.text('industry').notNullable();
    t.text('website').notNullable();
    t.text('metro').notNullable();
    t.text('country').notNullable();
    t.text('location').notNullable();
    t.text('size').notNullable();
    t.integer('employee_count').notNullable();
    t.integer('founded').notNullable();
    t.text('summary').notNullable();
    t.text('description').notNullable();
    t.specificType('tags', 'text[]').notNullable();
  });
  await knex.raw(`
    alter table companies add column search_vector tsvector generated always as (
      setweight(to_tsvector('english', name), 'A') || setweight(to_tsvector('english', industry), 'B') ||
      setweight(to_tsvector('english', summary), 'C')
    ) stored`);
  await knex.raw('create index companies_search_vector_idx on companies using gin (search_vector)');
  await knex.raw('create index companies_metro_idx on companies (metro)');
  await knex.raw('create index companies_country_idx on companies (country)');
  await knex.raw('create index companies_industry_idx on companies (lower(industry))');

  // Built-in web search: generated public pages (company sites, bios, news), ranked by full text.
  await knex.schema.createTable('web_pages', (t) => {
    t.bigInteger('id').primary();
    t.text('kind').notNullable().checkIn(['company', 'bio', 'news']);
    t.text('url').notNullable();
    t.text('title').notNullable();
    t.text('snippet').notNullable();
    t.text('body').notNullable();
    t.timestamp('published_at', { useTz: true });
  });
  await knex.raw(`
    alter table web_pages add column search_vector tsvector generated always as (
      setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', body), 'B')
    ) stored`);
  await knex.raw('create index web_pages_search_vector_idx on web_pages using gin (search_vector)');

  // Concurrency slots per provider, leased (a killed process's slot frees itself when its lease ends).
  await knex.schema.createTable('provider_slots', (t) => {
    t.text('provider').notNullable();
    t.integer('slot').notNullable();
    t.text('holder');
    t.timestamp('expires_at', { useTz: true });
    t.primary(['provider', 'slot']);
  });
  // QPS pacing per provider: the earliest time the next call may start.
  await knex.schema.createTable('provider_pacing', (t) => {
    t.text('provider').primary();
    t.timestamp('next_at', { useTz: true }).notNullable();
  });

  // Idempotent data calls: a pending row (the first call working, until locked_until) then the stored answer.
  await knex.schema.alterTable('idempotency_keys', (t) => {
    t.text('state').notNullable().defaultTo('done').checkIn(['pending', 'done']);
    t.timestamp('locked_until', { useTz: true });
    t.integer('response_status');
    t.jsonb('response');
  });

  // USD per data call (DESIGN.md §9), per plan.
  await knex.schema.alterTable('plans', (t) => {
    t.jsonb('data_prices')
      .notNullable()
      .defaultTo(JSON.stringify({ web_search: 0.005, people_search: 0.02, people_read: 0.05, company_search: 0.01, company_read: 0.02 }));
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('plans', (t) => t.dropColumn('data_prices'));
  await knex.schema.alterTable('idempotency_keys', (t) => {
    t.dropColumn('state');
    t.dropColumn('locked_until');
    t.dropColumn('response_status');
    t.dropColumn('response');
  });
  for (const table of ['provider_pacing', 'provider_slots', 'web_pages', 'companies']) await knex.schema.dropTable(table);
}
