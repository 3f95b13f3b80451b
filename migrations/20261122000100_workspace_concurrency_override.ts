import type { Knex } from 'knex';

/**
 * Search limits come from the plan (DESIGN.md §8: plans carry concurrent and daily search
 * limits). workspaces.max_concurrent_searches becomes an optional per-workspace override: null
 * (the new default) means the plan's limit. Existing rows keep their number, so no running
 * workspace's limit changes under it; an operator clears one with
 * `workspaces update ID --max-concurrent-searches plan`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table workspaces alter column max_concurrent_searches drop not null, alter column max_concurrent_searches drop default');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('update workspaces set max_concurrent_searches = 3 where max_concurrent_searches is null');
  await knex.raw('alter table workspaces alter column max_concurrent_searches set default 3, alter column max_concurrent_searches set not null');
}
