// The API as a library: what tests, scripts and the workers build it from.

export { type Config, loadConfig } from "@switchboard/domain/config";
export { type App, type BuildOptions, buildApp } from "./app";
export type { Deps } from "./deps";
