-- Named developer API keys (docs/api-keys.md): several per customer, each with scopes (send, read, manage), an
-- optional expiry, the time it was last used (written at most once a minute per key) and a revocation time.
-- Only the key's sha256 is stored, as users.secretKeyHash always was.
CREATE TABLE "api_keys" (
    "id" SERIAL NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "name" VARCHAR(64) NOT NULL,
    "prefix" VARCHAR(16) NOT NULL,
    "hash" VARCHAR(64) NOT NULL,
    "scopes" TEXT[] NOT NULL,
    "expiresAt" TIMESTAMPTZ(3),
    "lastUsedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "api_keys_scopes_check" CHECK ("scopes" <@ ARRAY['send', 'read', 'manage']::TEXT[])
);

CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");

CREATE INDEX "api_keys_userId_createdAt_idx" ON "api_keys"("userId", "createdAt");

ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The single key of before becomes the key named "default", with every scope and its hash kept: integrations
-- holding it go on working.
INSERT INTO "api_keys" ("tenantId", "userId", "name", "prefix", "hash", "scopes", "createdAt")
SELECT "tenantId", "id", 'default', COALESCE("secretKeyPrefix", ''), "secretKeyHash", ARRAY['send', 'read', 'manage'],
       COALESCE("secretKeyCreatedAt", CURRENT_TIMESTAMP)
  FROM "users"
 WHERE "secretKeyHash" IS NOT NULL AND "tenantId" IS NOT NULL AND "deletedAt" IS NULL;

-- users.secretKeyHash stays the "default" key (POST /user/sk/refresh, the developer page) and the key callbacks
-- are signed with. Whatever changes it (the refresh route, deleting the account, SQL by hand) revokes the key it
-- held and adds the new one as "default" with every scope.
CREATE FUNCTION users_default_api_key() RETURNS trigger LANGUAGE plpgsql
  AS E'BEGIN IF TG_OP = ''UPDATE'' THEN UPDATE api_keys SET "revokedAt" = CURRENT_TIMESTAMP WHERE hash = OLD."secretKeyHash" AND "revokedAt" IS NULL\073 END IF\073 IF NEW."secretKeyHash" IS NOT NULL AND NEW."tenantId" IS NOT NULL THEN INSERT INTO api_keys ("tenantId", "userId", name, prefix, hash, scopes, "createdAt") VALUES (NEW."tenantId", NEW.id, ''default'', COALESCE(NEW."secretKeyPrefix", ''''), NEW."secretKeyHash", ARRAY[''send'', ''read'', ''manage''], COALESCE(NEW."secretKeyCreatedAt", CURRENT_TIMESTAMP)) ON CONFLICT (hash) DO NOTHING\073 END IF\073 RETURN NULL\073 END';

CREATE TRIGGER users_default_api_key_update AFTER UPDATE OF "secretKeyHash" ON users FOR EACH ROW
  WHEN (OLD."secretKeyHash" IS DISTINCT FROM NEW."secretKeyHash")
  EXECUTE FUNCTION users_default_api_key();

CREATE TRIGGER users_default_api_key_insert AFTER INSERT ON users FOR EACH ROW
  WHEN (NEW."secretKeyHash" IS NOT NULL)
  EXECUTE FUNCTION users_default_api_key();

-- The API holds a key's user, scopes, expiry and revocation in memory (apps/api/src/plugins/session-cache.ts,
-- `keyUser`): a revocation or any change of a key drops the user's keys in every API process, through the same
-- channel as the users trigger. lastUsedAt alone is not a change of what the check reads.
CREATE FUNCTION notify_api_key_user() RETURNS trigger LANGUAGE plpgsql
  AS E'BEGIN PERFORM pg_notify(''session_users'', OLD."userId"::text)\073 RETURN NULL\073 END';

CREATE TRIGGER api_keys_session_update AFTER UPDATE ON api_keys FOR EACH ROW
  WHEN (OLD."revokedAt" IS DISTINCT FROM NEW."revokedAt"
     OR OLD."expiresAt" IS DISTINCT FROM NEW."expiresAt"
     OR OLD.scopes IS DISTINCT FROM NEW.scopes
     OR OLD.hash IS DISTINCT FROM NEW.hash
     OR OLD."userId" IS DISTINCT FROM NEW."userId")
  EXECUTE FUNCTION notify_api_key_user();

CREATE TRIGGER api_keys_session_delete AFTER DELETE ON api_keys FOR EACH ROW
  EXECUTE FUNCTION notify_api_key_user();
