-- Webhook subscriptions and their deliveries (issue 14; spec: Events, Webhook resources).
--
-- A subscription's secret must be usable for signing, so it is stored encrypted (AES-256-GCM under
-- a key derived from the server secret; src/domain/webhooks/secrets.ts), never hashed, and never
-- returned after creation. Deleting is soft: the row stays with active = false.
create table webhook_subscriptions (
  id uuid primary key default gen_random_uuid(),
  -- creation order, even among subscriptions made at one instant ("the most recently created")
  seq bigint generated always as identity,
  consumer_id uuid not null references consumers (id),
  webhook_url text not null,
  filter_source text not null,
  filter_entity_type text not null,
  filter_change_type text not null,
  secret_ciphertext text not null,
  active boolean not null default true,
  deactivation_reason text check (deactivation_reason in ('deleted', 'consecutive_4xx')),
  -- 4xx answers (408 and 429 aside) since the last 2xx; six deactivate the subscription
  consecutive_4xx integer not null default 0,
  created_at timestamptz not null,
  deactivated_at timestamptz,
  check (active = (deactivation_reason is null))
);
create index webhook_subscriptions_by_consumer on webhook_subscriptions (consumer_id, seq) where active;

-- One row per (subscription, change) to deliver; the sandbox's test events have no change.
-- A sweep claims due rows with FOR UPDATE SKIP LOCKED and moves next_attempt_at forward by a lease
-- in the same statement, so a worker that dies mid-attempt leaves the row due again (at least once).
-- `attempts` counts claims, so a re-sent change carries a higher attempt_number.
create table webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  subscription_id uuid not null references webhook_subscriptions (id),
  change_id uuid references changes (id),
  event_type text not null,
  status text not null check (status in ('pending', 'delivered', 'abandoned', 'cancelled')),
  attempts integer not null default 0,
  next_attempt_at timestamptz,
  created_at timestamptz not null,
  finished_at timestamptz,
  unique (subscription_id, change_id),
  check ((status = 'pending') = (next_attempt_at is not null))
);
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending';
create index webhook_deliveries_by_subscription on webhook_deliveries (subscription_id) where status = 'pending';

-- What each attempt met: the receiver's status, or why there was none.
create table webhook_attempts (
  id bigint generated always as identity primary key,
  delivery_id uuid not null references webhook_deliveries (id),
  attempt_number integer not null,
  correlation_id uuid not null,
  attempted_at timestamptz not null,
  http_status integer,
  error_class text,
  response_time_ms integer not null
);
create index webhook_attempts_by_delivery on webhook_attempts (delivery_id, attempt_number);
