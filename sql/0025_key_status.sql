-- Whether a key may be used, decided once (ARCHITECTURE.md, "Key confirmation"): the key lookup
-- reads its status (src/store/accounts.ts), and key_is_live — which the rate-limit count and the
-- charge check in the same statement as their write — is that status for the consumer and plan
-- the caller was resolved with. 'unknown': no such key (or not the consumer's); 'retiered': the
-- consumer's plan changed since the caller was resolved.
create or replace function key_status(p_key_id uuid, p_consumer_id uuid default null, p_tier text default null) returns text
language sql stable as $$
  select coalesce((
    select case
             when k.revoked_at is not null then 'revoked'
             when not c.active then 'consumer_inactive'
             when p_tier is not null and c.tier <> p_tier then 'retiered'
             else 'live'
           end
    from api_keys k join consumers c on c.id = k.consumer_id
    where k.id = p_key_id and (p_consumer_id is null or k.consumer_id = p_consumer_id)
  ), 'unknown')
$$;

create or replace function key_is_live(p_key_id uuid, p_consumer_id uuid, p_tier text) returns boolean
language sql stable as $$
  select key_status(p_key_id, p_consumer_id, p_tier) = 'live'
$$;
