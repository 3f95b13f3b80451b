import type { Knex } from 'knex';

// Share links are looked up by a hash of the token, then compared in constant time, so the
// lookup's timing says nothing about how close a guessed token is.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => {
    t.text('share_token_hash');
  });
  await knex.raw(`update projects set share_token_hash = encode(digest(share_token, 'sha256'), 'hex')`);
  await knex.raw('alter table projects alter column share_token_hash set not null');
  await knex.raw('create unique index projects_share_token_hash_idx on projects (share_token_hash)');
  await knex.raw('create index search_people_candidate_idx on search_people (candidate_id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index search_people_candidate_idx');
  await knex.schema.alterTable('projects', (t) => {
    t.dropColumn('share_token_hash');
  });
}
