-- Test-tier keys (svc_test_…): minted like other keys, answered from the sandbox's synthetic data,
-- never charged and never sent upstream. Expand-only: existing keys are production keys.
alter table api_keys add column test boolean not null default false;
