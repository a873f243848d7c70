-- Verified-token caches (src/identity/token-cache.ts) hold a principal built from these tables.
-- Any statement that may change what a token grants (revoke, expiry, scopes, memberships, user
-- email, workspace slug, deletions) tells every listening replica to empty its cache at commit,
-- whatever path made the change: the app, the token CLI, a boot's demo-token revocation, plain SQL.
-- The body is an E'' string with \x3B for the semicolons: the migration runner through the driver
-- adapter splits scripts at every semicolon, dollar quotes included.
CREATE FUNCTION "notify_identity_changed"() RETURNS trigger LANGUAGE plpgsql AS
  E'BEGIN PERFORM pg_notify(''identity_changed'', TG_TABLE_NAME)\x3B RETURN NULL\x3B END';

CREATE TRIGGER "access_tokens_identity_changed"
  AFTER UPDATE OR DELETE OR TRUNCATE ON "access_tokens"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_identity_changed"();

CREATE TRIGGER "memberships_identity_changed"
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "memberships"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_identity_changed"();

CREATE TRIGGER "users_identity_changed"
  AFTER UPDATE OF "email" OR DELETE OR TRUNCATE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_identity_changed"();

CREATE TRIGGER "workspaces_identity_changed"
  AFTER UPDATE OF "slug" OR DELETE OR TRUNCATE ON "workspaces"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_identity_changed"();
