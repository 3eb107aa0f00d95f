// What the workers share with the batch module (package export "@switchboard/api/batches"): the ingest of file
// batches (the ingest-batch job's handler) and the API's producer of batch jobs.
export { type BatchJobs, bullBatchJobs } from "./batch-jobs";
export { abandonIngest, type IngestDeps, type IngestOutcome, ingestBatch } from "./ingest";
