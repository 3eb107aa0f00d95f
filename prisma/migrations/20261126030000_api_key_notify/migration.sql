-- The API also keeps developer API keys' users in memory (apps/api/src/plugins/session-cache.ts, `keyUser`): a
-- change of the key, the API switch or the IP whitelist must drop that entry in every API process at once, as a
-- change of the session columns does.
DROP TRIGGER users_session_update ON users;

CREATE TRIGGER users_session_update AFTER UPDATE ON users FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status
     OR OLD."tokenVersion" IS DISTINCT FROM NEW."tokenVersion"
     OR OLD."deletedAt" IS DISTINCT FROM NEW."deletedAt"
     OR OLD."tenantId" IS DISTINCT FROM NEW."tenantId"
     OR OLD.type IS DISTINCT FROM NEW.type
     OR OLD."agentId" IS DISTINCT FROM NEW."agentId"
     OR OLD.username IS DISTINCT FROM NEW.username
     OR OLD."secretKeyHash" IS DISTINCT FROM NEW."secretKeyHash"
     OR OLD."apiEnabled" IS DISTINCT FROM NEW."apiEnabled"
     OR OLD."ipWhitelist" IS DISTINCT FROM NEW."ipWhitelist")
  EXECUTE FUNCTION notify_session_user();
