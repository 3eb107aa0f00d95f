-- Reseller money rules (docs/finance.md, "Agents: the reseller model"): a customer's balance is split into what
-- its agent paid in (agentFunded, the only part the agent may deduct back) and what the platform gave.

-- AlterTable
ALTER TABLE "message_batches" ADD COLUMN     "agentFunded" BIGINT NOT NULL DEFAULT 0;

-- AlterTable
-- Existing balances start as given by the platform: nothing recorded says which agent paid for what is left of
-- them, and counting it as the agent's would let an agent take back money it may never have paid.
ALTER TABLE "users" ADD COLUMN     "agentFunded" BIGINT NOT NULL DEFAULT 0;

-- The ledger keeps these, and the constraints make a bug in it fail the transaction instead of corrupting balances.
ALTER TABLE "users" ADD CONSTRAINT "users_agent_funded_range" CHECK ("agentFunded" >= 0 AND "agentFunded" <= "balance");
ALTER TABLE "message_batches" ADD CONSTRAINT "message_batches_agent_funded_range" CHECK ("agentFunded" >= 0 AND "agentFunded" <= "cost");

-- A customer moved to another agent (or to none) keeps its balance, but what the old agent paid in becomes the
-- platform's: the new agent never paid it and must not deduct it, and the old agent no longer manages the customer.
-- A trigger, so no code path that changes "agentId" (the user edit, an agent row removed: ON DELETE SET NULL) can
-- forget it.
-- The body is an escape string with \073 for each semicolon: the migration runner (prisma/src/migrate.ts, Wasm
-- engine) splits a script at every semicolon, even inside a dollar-quoted body.
CREATE FUNCTION "users_agent_change_forfeits_funding"() RETURNS trigger LANGUAGE plpgsql
  AS E'BEGIN NEW."agentFunded" := 0\073 RETURN NEW\073 END';

CREATE TRIGGER "users_agent_change_forfeits_funding"
  BEFORE UPDATE OF "agentId" ON "users"
  FOR EACH ROW
  WHEN (OLD."agentId" IS DISTINCT FROM NEW."agentId")
  EXECUTE FUNCTION "users_agent_change_forfeits_funding"();
