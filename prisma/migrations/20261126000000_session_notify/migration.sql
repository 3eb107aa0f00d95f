-- The API keeps signed-in users' session state (status, token version, deletion, tenant, type) in memory and
-- drops a user's entry when this notification names it: every change to those columns, by any code path or by
-- hand, ends the sessions it should at once, in every API process (apps/api/src/plugins/session-cache.ts).
-- The body is an escape string with \073 for each semicolon: the migration runner (prisma/src/migrate.ts, Wasm
-- engine) splits a script at every semicolon, even inside a dollar-quoted body.
CREATE FUNCTION notify_session_user() RETURNS trigger LANGUAGE plpgsql
  AS E'BEGIN PERFORM pg_notify(''session_users'', OLD.id::text)\073 RETURN NULL\073 END';

CREATE TRIGGER users_session_update AFTER UPDATE ON users FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status
     OR OLD."tokenVersion" IS DISTINCT FROM NEW."tokenVersion"
     OR OLD."deletedAt" IS DISTINCT FROM NEW."deletedAt"
     OR OLD."tenantId" IS DISTINCT FROM NEW."tenantId"
     OR OLD.type IS DISTINCT FROM NEW.type
     OR OLD."agentId" IS DISTINCT FROM NEW."agentId"
     OR OLD.username IS DISTINCT FROM NEW.username)
  EXECUTE FUNCTION notify_session_user();

CREATE TRIGGER users_session_delete AFTER DELETE ON users FOR EACH ROW
  EXECUTE FUNCTION notify_session_user();
