-- Records CSV fragments of a search person (see migration 1100), rebuilt on insert and when summary
-- or profile change. Fields are quoted by RFC 4180, the rule of csvField in src/domain/csv.ts.
create or replace function search_people_csv() returns trigger language plpgsql as $$
begin
  -- Re-scoring rewrites profile with its own value: nothing to rebuild then.
  if tg_op = 'UPDATE' and new.summary is not distinct from old.summary and new.profile is not distinct from old.profile then
    return new;
  end if;
  new.csv_person := concat_ws(',',
    (case when (new.summary->>'first_name') ~ '[",\r\n]' then '"' || replace((new.summary->>'first_name'), '"', '""') || '"' else coalesce((new.summary->>'first_name'), '') end), (case when (new.summary->>'last_name') ~ '[",\r\n]' then '"' || replace((new.summary->>'last_name'), '"', '""') || '"' else coalesce((new.summary->>'last_name'), '') end), (case when (new.summary->>'title') ~ '[",\r\n]' then '"' || replace((new.summary->>'title'), '"', '""') || '"' else coalesce((new.summary->>'title'), '') end), (case when (new.summary->>'company') ~ '[",\r\n]' then '"' || replace((new.summary->>'company'), '"', '""') || '"' else coalesce((new.summary->>'company'), '') end),
    (case when (new.summary->>'location') ~ '[",\r\n]' then '"' || replace((new.summary->>'location'), '"', '""') || '"' else coalesce((new.summary->>'location'), '') end), (case when (new.summary->>'network_url') ~ '[",\r\n]' then '"' || replace((new.summary->>'network_url'), '"', '""') || '"' else coalesce((new.summary->>'network_url'), '') end),
    case when (new.summary->>'open_profile')::boolean then 'yes' else 'no' end,
    case when (new.summary->>'premium')::boolean then 'yes' else 'no' end,
    (case when (new.summary->>'summary') ~ '[",\r\n]' then '"' || replace((new.summary->>'summary'), '"', '""') || '"' else coalesce((new.summary->>'summary'), '') end));
  new.csv_profile := concat_ws(',',
    (case when (new.profile->>'about') ~ '[",\r\n]' then '"' || replace((new.profile->>'about'), '"', '""') || '"' else coalesce((new.profile->>'about'), '') end),
    (case when (select string_agg(format('%s, %s (%s – %s)', e->>'title', e->>'company', e->>'start', coalesce(e->>'end', 'present')), ' | ' order by o)
           from jsonb_array_elements(new.profile->'experience') with ordinality as x(e, o)) ~ '[",\r\n]' then '"' || replace((select string_agg(format('%s, %s (%s – %s)', e->>'title', e->>'company', e->>'start', coalesce(e->>'end', 'present')), ' | ' order by o)
           from jsonb_array_elements(new.profile->'experience') with ordinality as x(e, o)), '"', '""') || '"' else coalesce((select string_agg(format('%s, %s (%s – %s)', e->>'title', e->>'company', e->>'start', coalesce(e->>'end', 'present')), ' | ' order by o)
           from jsonb_array_elements(new.profile->'experience') with ordinality as x(e, o)), '') end),
    (case when (select string_agg(format('%s %s, %s (%s–%s)', e->>'degree', e->>'field', e->>'school', e->>'start_year', e->>'end_year'), ' | ' order by o)
           from jsonb_array_elements(new.profile->'education') with ordinality as x(e, o)) ~ '[",\r\n]' then '"' || replace((select string_agg(format('%s %s, %s (%s–%s)', e->>'degree', e->>'field', e->>'school', e->>'start_year', e->>'end_year'), ' | ' order by o)
           from jsonb_array_elements(new.profile->'education') with ordinality as x(e, o)), '"', '""') || '"' else coalesce((select string_agg(format('%s %s, %s (%s–%s)', e->>'degree', e->>'field', e->>'school', e->>'start_year', e->>'end_year'), ' | ' order by o)
           from jsonb_array_elements(new.profile->'education') with ordinality as x(e, o)), '') end),
    (case when (select string_agg(v, '; ' order by o) from jsonb_array_elements_text(new.profile->'skills') with ordinality as x(v, o)) ~ '[",\r\n]' then '"' || replace((select string_agg(v, '; ' order by o) from jsonb_array_elements_text(new.profile->'skills') with ordinality as x(v, o)), '"', '""') || '"' else coalesce((select string_agg(v, '; ' order by o) from jsonb_array_elements_text(new.profile->'skills') with ordinality as x(v, o)), '') end),
    (case when (select string_agg(v, '; ' order by o) from jsonb_array_elements_text(new.profile->'certifications') with ordinality as x(v, o)) ~ '[",\r\n]' then '"' || replace((select string_agg(v, '; ' order by o) from jsonb_array_elements_text(new.profile->'certifications') with ordinality as x(v, o)), '"', '""') || '"' else coalesce((select string_agg(v, '; ' order by o) from jsonb_array_elements_text(new.profile->'certifications') with ordinality as x(v, o)), '') end),
    (case when (select string_agg(v, '; ' order by o) from jsonb_array_elements_text(new.profile->'languages') with ordinality as x(v, o)) ~ '[",\r\n]' then '"' || replace((select string_agg(v, '; ' order by o) from jsonb_array_elements_text(new.profile->'languages') with ordinality as x(v, o)), '"', '""') || '"' else coalesce((select string_agg(v, '; ' order by o) from jsonb_array_elements_text(new.profile->'languages') with ordinality as x(v, o)), '') end),
    (case when (select string_agg(format('%s: %s', e->>'name', e->>'description'), ' | ' order by o)
           from jsonb_array_elements(new.profile->'projects') with ordinality as x(e, o)) ~ '[",\r\n]' then '"' || replace((select string_agg(format('%s: %s', e->>'name', e->>'description'), ' | ' order by o)
           from jsonb_array_elements(new.profile->'projects') with ordinality as x(e, o)), '"', '""') || '"' else coalesce((select string_agg(format('%s: %s', e->>'name', e->>'description'), ' | ' order by o)
           from jsonb_array_elements(new.profile->'projects') with ordinality as x(e, o)), '') end),
    coalesce(new.profile->>'connections', ''));
  return new;
end $$;
