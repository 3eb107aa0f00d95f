// The API as a library: what tests, scripts and the workers build it from.
export { type App, type BuildOptions, buildApp } from "./app";
export { type Config, loadConfig } from "./config";
export type { Deps } from "./deps";
