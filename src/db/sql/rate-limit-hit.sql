-- Counts one request against every bucket of a fixed window, all or nothing (see
-- rate-limit.repository.ts). A bucket is taken only while below its limit (`count < limit` under
-- the row lock), so concurrent callers never overshoot. A refused call gives back the buckets it
-- had already counted: their rows are still locked by this transaction, so nobody saw the
-- increment. (An exception block would do the same through a subtransaction on every call: about
-- a sixth more time per call, measured.)
create or replace function rate_limit_hit(p_buckets text[], p_limits int[], p_window timestamptz)
returns table (allowed boolean, counts int[]) language plpgsql as $$
declare
  i int;
  c int;
  taken int[] := '{}';
begin
  for i in 1 .. coalesce(array_length(p_buckets, 1), 0) loop
    c := null;
    insert into rate_limit_windows as r (bucket, window_start, count) values (p_buckets[i], p_window, 1)
    on conflict (bucket, window_start) do update set count = r.count + 1 where r.count < p_limits[i]
    returning r.count into c;
    if c is null or c > p_limits[i] then
      -- c > limit: a new row counted 1 against a limit below 1; give that back too.
      update rate_limit_windows w set count = w.count - 1
       where w.window_start = p_window
         and w.bucket = any(p_buckets[1 : case when c is null then i - 1 else i end]);
      return query
        select false, array_agg(coalesce(w.count, 0) order by u.ord)::int[]
          from unnest(p_buckets) with ordinality as u(bucket, ord)
          left join rate_limit_windows w on w.bucket = u.bucket and w.window_start = p_window;
      return;
    end if;
    taken := taken || c;
  end loop;
  return query select true, taken;
end $$;
