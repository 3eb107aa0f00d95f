-- The (userId, idempotencyKey) unique index holds only keyed batches (issue 20). Most batches carry no key, and
-- every version of their row (a single send writes four: created, started, sent, its receipt counted) added a
-- NULL entry to it that no lookup ever reads. Lookups compare the key (= 'x' implies IS NOT NULL), so the planner
-- still uses it, and a second batch with the same key still violates it (23505).
DROP INDEX "message_batches_userId_idempotencyKey_key";
CREATE UNIQUE INDEX "message_batches_userId_idempotencyKey_key" ON "message_batches"("userId", "idempotencyKey") WHERE "idempotencyKey" IS NOT NULL;
