// The same throwaway world as the API's tests (apps/api/test/global-setup.ts): a database of its own per run,
// migrated and demo-seeded, and a Redis key prefix per run, both removed at the end. One setup, two projects.
export { default } from "../../apps/api/test/global-setup";
