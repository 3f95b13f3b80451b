-- Records CSV cells first_name … summary (9) of a search person's result-page summary, as
-- `COPY … TO STDOUT WITH CSV` writes them: each text through csv_cell (formula-neutralised; COPY
-- does the RFC 4180 quoting), and null for an empty cell, since COPY writes '' as "" and null as
-- nothing. Used by the search_people_csv_cells trigger.
create or replace function search_people_csv_person_cells(summary jsonb,
    out first_name text, out last_name text, out title text, out company text, out location text, out network_url text,
    out open_profile text, out premium text, out summary_text text)
  language sql immutable parallel safe as $$
  select nullif(csv_cell(summary->>'first_name'), ''), nullif(csv_cell(summary->>'last_name'), ''), nullif(csv_cell(summary->>'title'), ''),
         nullif(csv_cell(summary->>'company'), ''), nullif(csv_cell(summary->>'location'), ''), nullif(csv_cell(summary->>'network_url'), ''),
         case when (summary->>'open_profile')::boolean then 'yes' else 'no' end,
         case when (summary->>'premium')::boolean then 'yes' else 'no' end,
         nullif(csv_cell(summary->>'summary'), '')
$$;
