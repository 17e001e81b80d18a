-- What "this key may still be used, with this tier" means, in one place: the rate-limit count of a
-- keyed request and the charge of a metered call both check it in the same statement as their
-- write (src/store/rate-limits.ts, src/store/credits.ts), so a key resolved from a process's cache
-- is confirmed by the write itself.
create function key_is_live(p_key_id uuid, p_consumer_id uuid, p_tier text) returns boolean
language sql stable as $$
  select exists (
    select 1 from api_keys k join consumers c on c.id = k.consumer_id
    where k.id = p_key_id and k.consumer_id = p_consumer_id and k.revoked_at is null and c.active and c.tier = p_tier
  )
$$;
