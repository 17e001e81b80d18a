-- An OAuth connection binds only to the account its token holder owns (issue 19, Medium 2): what
-- the verified access token that asked for the connection says about its holder — the e-mail it
-- claims, whether the authorization server verified it, and the client it was issued to — kept on
-- the connection. While pending it is refreshed from each newer token of the same subject;
-- approval links the subject only to the account with that verified e-mail.
alter table oauth_connections
  add column token_email text,
  add column token_email_verified boolean not null default false,
  add column token_client_id text;
