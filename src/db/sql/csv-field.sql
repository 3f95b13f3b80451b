-- A CSV field: csv_cell's text, quoted by RFC 4180 (fields with a comma, quote, CR or LF are
-- quoted, quotes doubled; null is empty), the rule of csvField in src/domain/csv.ts.
create or replace function csv_field(value text) returns text language sql immutable parallel safe as $$
  select case when c ~ '[",\r\n]' then '"' || replace(c, '"', '""') || '"' else coalesce(c, '') end from (select csv_cell(value) as c) as cell
$$;
