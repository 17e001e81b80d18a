-- Revoking the key behind an OAuth connection ends the connection in the same transaction
-- (issue 18, item 1; domain/access/keys.ts revokeKey). Before that rule a revoked key left its
-- connection active on a dead key, and the host could never reconnect: end those connections now,
-- audited as the revoke would have done.
insert into audit_log (consumer_id, actor, action, details)
select c.consumer_id, 'system', 'oauth_connection_revoked',
       jsonb_build_object('connection_id', c.id, 'key_id', c.key_id, 'reason', 'key_revoked')
from oauth_connections c join api_keys k on k.id = c.key_id
where c.status = 'active' and k.revoked_at is not null;

update oauth_connections c set status = 'revoked', revoked_at = k.revoked_at
from api_keys k
where k.id = c.key_id and c.status = 'active' and k.revoked_at is not null;

-- A key's revoke finds its active connection by key.
create index oauth_connections_active_key on oauth_connections (key_id) where status = 'active';
