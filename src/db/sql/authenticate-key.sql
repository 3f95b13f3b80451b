-- The key by its hash with its workspace, its request counted on the key and workspace buckets
-- (rate_limit_hit), and, when p_search_id names a search of the workspace, that search's version
-- (status, updated_at): a people page read needs nothing else from the database, so it costs one
-- round trip (migration 20261125000400).
create or replace function authenticate_key(p_key_hash text, p_window timestamptz, p_search_id uuid default null)
returns table (key jsonb, workspace jsonb, allowed boolean, counts int[], search jsonb) language plpgsql as $$
declare
  k api_keys%rowtype;
  w workspaces%rowtype;
  r record;
begin
  select * into k from api_keys where key_hash = p_key_hash;
  if not found then
    return query select null::jsonb, null::jsonb, null::boolean, null::int[], null::jsonb;
    return;
  end if;
  select * into w from workspaces where id = k.workspace_id;
  if k.revoked_at is not null or (k.expires_at is not null and k.expires_at <= now()) then
    return query select to_jsonb(k), to_jsonb(w), null::boolean, null::int[], null::jsonb;
    return;
  end if;
  select * into r from rate_limit_hit(array['key:' || k.id, 'workspace:' || w.id], array[k.rate_limit_per_minute, w.rate_limit_per_minute], p_window);
  -- The providers the workspace has an active credential for: a data call to any other provider
  -- resolves its source without reading the credentials table again.
  return query select to_jsonb(k),
    to_jsonb(w) || jsonb_build_object('credential_providers',
      coalesce((select jsonb_agg(distinct c.provider) from credentials c where c.workspace_id = w.id and c.is_active), '[]'::jsonb)),
    r.allowed, r.counts,
    (select jsonb_build_object('status', s.status, 'updated_at', s.updated_at) from searches s where s.id = p_search_id and s.workspace_id = w.id);
end $$;
