-- The text of a CSV cell as written: one that starts like a formula (=, +, -, @, tab, CR) gets a
-- leading ' (OWASP "CSV Injection"), the rule of csvCell in src/domain/csv.ts. A streamed
-- `COPY … TO STDOUT WITH CSV` selects csv_cell(column) and lets COPY quote.
create or replace function csv_cell(value text) returns text language sql immutable parallel safe as $$
  select case when value ~ '^[=+@\t\r-]' then '''' || value else value end
$$;
