-- The API holds what a single send is checked and priced against (the customer's account columns, the tenant's
-- settings, products, prices, routes, channels, sender id approvals) in memory, and forgets all of it when this
-- notification comes: every change to those rows, by any code path or by hand, is seen by the next send in every
-- API process (apps/api/src/modules/batch-submit/submit-memory.ts). The users trigger fires only on the columns a
-- submission reads (never on the balance, which every send moves and which is never held). Catalogue tables
-- notify once per statement, so a bulk price import costs one notification.
-- Bodies are escape strings with \073 for each semicolon (the migration runner splits at every semicolon).
CREATE FUNCTION notify_submit_context() RETURNS trigger LANGUAGE plpgsql
  AS E'BEGIN PERFORM pg_notify(''submit_context'', TG_TABLE_NAME)\073 RETURN NULL\073 END';

CREATE TRIGGER users_submit_context_update AFTER UPDATE ON users FOR EACH ROW
  WHEN (OLD.type IS DISTINCT FROM NEW.type
     OR OLD."tenantId" IS DISTINCT FROM NEW."tenantId"
     OR OLD."agentId" IS DISTINCT FROM NEW."agentId"
     OR OLD.status IS DISTINCT FROM NEW.status
     OR OLD."authStatus" IS DISTINCT FROM NEW."authStatus"
     OR OLD."authRequirement" IS DISTINCT FROM NEW."authRequirement"
     OR OLD."authExemptUntil" IS DISTINCT FROM NEW."authExemptUntil"
     OR OLD.lang IS DISTINCT FROM NEW.lang
     OR OLD.international IS DISTINCT FROM NEW.international
     OR OLD."deletedAt" IS DISTINCT FROM NEW."deletedAt")
  EXECUTE FUNCTION notify_submit_context();

CREATE TRIGGER users_submit_context_delete AFTER DELETE ON users FOR EACH STATEMENT
  EXECUTE FUNCTION notify_submit_context();

CREATE TRIGGER tenant_settings_submit_context AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tenant_settings
  FOR EACH STATEMENT EXECUTE FUNCTION notify_submit_context();
CREATE TRIGGER products_submit_context AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON products
  FOR EACH STATEMENT EXECUTE FUNCTION notify_submit_context();
CREATE TRIGGER prices_submit_context AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON prices
  FOR EACH STATEMENT EXECUTE FUNCTION notify_submit_context();
CREATE TRIGGER customer_prices_submit_context AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON customer_prices
  FOR EACH STATEMENT EXECUTE FUNCTION notify_submit_context();
CREATE TRIGGER channel_routes_submit_context AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON channel_routes
  FOR EACH STATEMENT EXECUTE FUNCTION notify_submit_context();
CREATE TRIGGER channels_submit_context AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON channels
  FOR EACH STATEMENT EXECUTE FUNCTION notify_submit_context();
CREATE TRIGGER sender_ids_submit_context AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sender_ids
  FOR EACH STATEMENT EXECUTE FUNCTION notify_submit_context();
