-- One row per run of a scheduled job (jobs/runner.ts): an instance runs a job's tick only if its
-- insert of (job, tick) is the one that lands, so several instances sharing the database run each
-- tick once. `tick` is the scheduled instant truncated to the job's period, the same on every
-- instance. A row whose finished_at stays null belongs to a run that died with its instance; it
-- only ever blocks its own tick, never a later one. Rows older than a day are deleted by the
-- runner (src/store/job-ticks.ts).
create table job_ticks (
  job text not null,
  tick timestamptz not null,
  claimed_by text not null,
  claimed_at timestamptz not null,
  finished_at timestamptz,
  error text,
  primary key (job, tick)
);
