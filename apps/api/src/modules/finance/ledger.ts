// Moved to @switchboard/domain/ledger (packages/domain, issue 21). This path stays only for the batch module's
// imports (apps/api/src/modules/batches), which change once its rewrite lands; new code imports the package.
export * from "@switchboard/domain/ledger";
