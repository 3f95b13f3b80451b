import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // The built-in profile source: the people database (synthetic corpus or imported profiles).
  await knex.schema.createTable('people', (t) => {
    t.text('id').primary();
    t.text('first_name').notNullable();
    t.text('last_name').notNullable();
    t.text('title').notNullable();
    t.text('seniority').notNullable();
    t.text('family').notNullable();
    t.text('company').notNullable();
    t.text('industry').notNullable();
    t.text('metro').notNullable();
    t.text('country').notNullable();
    t.text('location').notNullable();
    t.text('network_url').notNullable();
    t.boolean('open_profile').notNullable();
    t.boolean('premium').notNullable();
    t.integer('years_experience').notNullable();
    t.specificType('skills', 'text[]').notNullable();
    // skills joined with spaces, for the full-text vector (array_to_string is not immutable).
    t.text('skills_text').notNullable();
    t.text('summary').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
  // The whole profile as read (experience, education, …), apart from the narrow filter columns
  // above, so ranking scans touch few heap pages.
  await knex.schema.createTable('people_profiles', (t) => {
    t.text('id').primary().references('people.id').onDelete('CASCADE');
    t.jsonb('profile').notNullable();
  });
  // Full text over title (weight A) and skills (B).
  await knex.raw(`
    alter table people add column search_vector tsvector generated always as (
      setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', skills_text), 'B')
    ) stored`);
  await knex.raw('create index people_search_vector_idx on people using gin (search_vector)');
  await knex.raw('create index people_family_metro_idx on people (family, metro)');
  await knex.raw('create index people_metro_idx on people (metro)');
  await knex.raw('create index people_country_idx on people (country)');
  await knex.raw('create index people_skills_idx on people using gin (skills)');

  await knex.schema.createTable('searches', (t) => {
    t.uuid('id').primary();
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.uuid('api_key_id').references('api_keys.id').onDelete('SET NULL');
    t.text('status').notNullable().checkIn(['queued', 'running', 'complete', 'failed']);
    t.text('outcome');
    t.text('stop_reason');
    t.text('source').notNullable().defaultTo('database');
    t.jsonb('criteria').notNullable();
    t.text('jd_text');
    t.jsonb('jd_confidence');
    t.text('funding_bucket').notNullable();
    t.integer('profiles_read').notNullable().defaultTo(0);
    t.integer('delivered').notNullable().defaultTo(0);
    t.integer('shortlisted').notNullable().defaultTo(0);
    t.integer('pages_fetched').notNullable().defaultTo(0);
    // Passes: 1 for the launch; expansions and database passes add more.
    t.integer('pass_count').notNullable().defaultTo(1);
    t.text('failure_reason');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('started_at', { useTz: true });
    t.timestamp('closed_at', { useTz: true });
    t.index(['workspace_id', 'status', 'created_at']);
    t.index(['project_id', 'created_at']);
  });

  // A person is one candidate per project, whichever search found them (stable candidate ids).
  await knex.schema.createTable('candidates', (t) => {
    t.uuid('id').primary();
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.text('person_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['project_id', 'person_id']);
  });

  // Every person a search returned, in the order returned (seq), read and scored or not.
  await knex.schema.createTable('search_people', (t) => {
    t.uuid('search_id').notNullable().references('searches.id').onDelete('CASCADE');
    t.uuid('candidate_id').notNullable().references('candidates.id');
    t.text('person_id').notNullable();
    t.integer('seq').notNullable();
    t.integer('pass').notNullable();
    t.integer('page').notNullable();
    t.text('status').notNullable().checkIn(['scored', 'not_read']);
    t.integer('score');
    t.jsonb('score_breakdown');
    // What the source returned in its result list (names, title, …) and, once read, the profile.
    t.jsonb('summary').notNullable();
    t.jsonb('profile');
    t.timestamp('read_at', { useTz: true });
    t.primary(['search_id', 'person_id']);
    t.unique(['search_id', 'seq']);
  });
  await knex.raw("create index search_people_scored_idx on search_people (search_id, score desc, seq) where status = 'scored'");

  // One row per processed page and pass: a retried page activity finds its page already done.
  await knex.schema.createTable('search_pages', (t) => {
    t.uuid('search_id').notNullable().references('searches.id').onDelete('CASCADE');
    t.integer('pass').notNullable();
    t.integer('page').notNullable();
    t.integer('returned').notNullable();
    t.integer('read').notNullable();
    t.timestamp('done_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['search_id', 'pass', 'page']);
  });

  await knex.schema.createTable('shortlist_members', (t) => {
    t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
    t.uuid('candidate_id').notNullable().references('candidates.id');
    t.uuid('search_id').references('searches.id').onDelete('SET NULL');
    // The search pass that added the member, when a search did.
    t.integer('pass');
    t.text('source').notNullable();
    t.timestamp('added_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['project_id', 'candidate_id']);
  });

  // Kept forever per workspace: route, project and a hash of the canonical body.
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('key').notNullable();
    t.text('route').notNullable();
    t.uuid('project_id');
    t.text('body_hash').notNullable();
    t.uuid('search_id').references('searches.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['workspace_id', 'key']);
  });

  // Transactional outbox: written with the state change; fan-out reads undispatched rows.
  await knex.schema.createTable('outbox_events', (t) => {
    t.text('id').primary();
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('type').notNullable();
    t.jsonb('data').notNullable();
    t.text('dedupe_key').notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('dispatched_at', { useTz: true });
  });
  await knex.raw('create index outbox_undispatched_idx on outbox_events (created_at) where dispatched_at is null');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['outbox_events', 'idempotency_keys', 'shortlist_members', 'search_pages', 'search_people', 'candidates', 'searches', 'people']) {
    await knex.schema.dropTable(table);
  }
}
