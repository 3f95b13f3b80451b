-- Records CSV columns about … connections (8) of a read profile, each a csv_field (empty when the
-- profile was not read). Used by the search_people_csv trigger.
create or replace function search_people_csv_profile(profile jsonb) returns text language sql immutable parallel safe as $$
  select concat_ws(',',
    csv_field(profile->>'about'),
    csv_field((select string_agg(format('%s, %s (%s – %s)', e->>'title', e->>'company', e->>'start', coalesce(e->>'end', 'present')), ' | ' order by o)
                 from jsonb_array_elements(profile->'experience') with ordinality as x(e, o))),
    csv_field((select string_agg(format('%s %s, %s (%s–%s)', e->>'degree', e->>'field', e->>'school', e->>'start_year', e->>'end_year'), ' | ' order by o)
                 from jsonb_array_elements(profile->'education') with ordinality as x(e, o))),
    csv_field((select string_agg(v, '; ' order by o) from jsonb_array_elements_text(profile->'skills') with ordinality as x(v, o))),
    csv_field((select string_agg(v, '; ' order by o) from jsonb_array_elements_text(profile->'certifications') with ordinality as x(v, o))),
    csv_field((select string_agg(v, '; ' order by o) from jsonb_array_elements_text(profile->'languages') with ordinality as x(v, o))),
    csv_field((select string_agg(format('%s: %s', e->>'name', e->>'description'), ' | ' order by o)
                 from jsonb_array_elements(profile->'projects') with ordinality as x(e, o))),
    coalesce(profile->>'connections', ''))
$$;
