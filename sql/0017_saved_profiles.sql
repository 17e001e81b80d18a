-- Saved profiles (issue 13, item 7): named presets an agent keeps for its account — an
-- organisation, an action type and a payload template to feed the execute route. Owned by the
-- consumer (every key of the account sees them); every lookup names the consumer, so another
-- account's id is not found. `config` is checked in code (only org_number, action, payload; no
-- key- or token-shaped value anywhere); here only that it is an object. At most 100 per consumer,
-- counted under the consumer's row lock (domain/profiles/profiles.ts).
create table saved_profiles (
  id uuid primary key default gen_random_uuid(),
  consumer_id uuid not null references consumers (id),
  name text not null check (char_length(name) between 1 and 80),
  config jsonb not null default '{}'::jsonb check (jsonb_typeof(config) = 'object'),
  created_at timestamptz not null,
  updated_at timestamptz not null,
  check (updated_at >= created_at)
);
create index saved_profiles_by_consumer on saved_profiles (consumer_id, updated_at desc, id);
