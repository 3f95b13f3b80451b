create or replace function rate_limit_hit(p_buckets text[], p_limits int[], p_window timestamptz)
returns table (allowed boolean, counts int[]) language plpgsql as $$
declare
  i int;
  c int;
  taken int[] := '{}';
begin
  begin
    for i in 1 .. coalesce(array_length(p_buckets, 1), 0) loop
      c := null;
      insert into rate_limit_windows as r (bucket, window_start, count) values (p_buckets[i], p_window, 1)
      on conflict (bucket, window_start) do update set count = r.count + 1 where r.count < p_limits[i]
      returning r.count into c;
      if c is null or c > p_limits[i] then
        raise exception 'rate limit reached' using errcode = 'P0429';
      end if;
      taken := taken || c;
    end loop;
    return query select true, taken;
  exception when sqlstate 'P0429' then
    return query
      select false, array_agg(coalesce(w.count, 0) order by u.ord)::int[]
        from unnest(p_buckets) with ordinality as u(bucket, ord)
        left join rate_limit_windows w on w.bucket = u.bucket and w.window_start = p_window;
  end;
end $$;
