-- The private baselines of the change archive's other sources (issue 27 item 6): the value last
-- observed per source, entity and field — a VAT-register membership, an exchange-rate series'
-- latest value, an employee count, an organisation's filings at the portal. An observation is
-- archived as a change only when it differs from this row (domain/changes/observed.ts); the first
-- observation of a key only writes the row (a baseline, not a change). The accounts diff keeps its
-- own baseline (accounts_baseline); a delegation's baseline is its own recorded status.
-- Expand-only: a new table.
create table change_baselines (
  source text not null,
  entity_type text not null,
  entity_id text not null,
  field_path text not null,
  value jsonb not null,
  observed_at timestamptz not null,
  primary key (source, entity_type, entity_id, field_path)
);
