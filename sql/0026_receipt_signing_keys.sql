-- Ed25519 keys that sign receipts beside the HMAC (issue 31 item 11: receipts a third party can
-- trust). Each key is generated at random by the service; its private half is kept only encrypted
-- (AES-256-GCM under the server secret's `receipt-ed25519-keys` key, the kid as associated data),
-- its public half is published at /.well-known/receipt-keys.json with its validity window. A key
-- signs receipts whose time falls in [valid_from, valid_until); rotation adds a key and closes the
-- previous one's window at the new key's valid_from, and a retired key stays listed for good so
-- the receipts it signed keep verifying. Expand-only: a new table.
create table receipt_signing_keys (
  kid text primary key,
  public_key bytea not null check (octet_length(public_key) = 32),
  private_key_sealed text not null,
  valid_from timestamptz not null,
  valid_until timestamptz,
  created_at timestamptz not null,
  check (valid_until is null or valid_until > valid_from)
);
-- at most one open-ended key: the current (or the announced next) one
create unique index receipt_signing_keys_open on receipt_signing_keys ((true)) where valid_until is null;
