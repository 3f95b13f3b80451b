import type { Knex } from 'knex';
import { applySqlSources } from '../src/db/sql-sources';

/**
 * authenticate_key takes an optional search id and returns that search's version with the key
 * (issue 26: a people page read in one round trip). The two-argument function goes first: next to
 * one whose third argument has a default, a two-argument call would be ambiguous.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists authenticate_key(text, timestamptz)');
  await applySqlSources(knex, ['authenticate-key']);
}

/** Back to the two-argument function of migration 20261124000200 (the same body without the search). */
export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function authenticate_key(text, timestamptz, uuid)');
  await knex.raw(`
    create function authenticate_key(p_key_hash text, p_window timestamptz)
    returns table (key jsonb, workspace jsonb, allowed boolean, counts int[]) language plpgsql as $$
    declare
      k api_keys%rowtype;
      w workspaces%rowtype;
      r record;
    begin
      select * into k from api_keys where key_hash = p_key_hash;
      if not found then
        return query select null::jsonb, null::jsonb, null::boolean, null::int[];
        return;
      end if;
      select * into w from workspaces where id = k.workspace_id;
      if k.revoked_at is not null or (k.expires_at is not null and k.expires_at <= now()) then
        return query select to_jsonb(k), to_jsonb(w), null::boolean, null::int[];
        return;
      end if;
      select * into r from rate_limit_hit(array['key:' || k.id, 'workspace:' || w.id], array[k.rate_limit_per_minute, w.rate_limit_per_minute], p_window);
      return query select to_jsonb(k),
        to_jsonb(w) || jsonb_build_object('credential_providers',
          coalesce((select jsonb_agg(distinct c.provider) from credentials c where c.workspace_id = w.id and c.is_active), '[]'::jsonb)),
        r.allowed, r.counts;
    end $$`);
}
