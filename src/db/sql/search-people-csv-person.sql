-- Records CSV columns first_name … summary (9) of a search person's result-page summary, each a
-- csv_field (formula-neutralised, RFC 4180 quoted). Used by the search_people_csv trigger.
create or replace function search_people_csv_person(summary jsonb) returns text language sql immutable parallel safe as $$
  select concat_ws(',',
    csv_field(summary->>'first_name'), csv_field(summary->>'last_name'), csv_field(summary->>'title'), csv_field(summary->>'company'),
    csv_field(summary->>'location'), csv_field(summary->>'network_url'),
    case when (summary->>'open_profile')::boolean then 'yes' else 'no' end,
    case when (summary->>'premium')::boolean then 'yes' else 'no' end,
    csv_field(summary->>'summary'))
$$;
