export { createApp, type AppOptions } from "./app";
export { ConfigError, DEFAULTS, readConfig, WORKERS_DEFAULTS, type Config, type PlatformDefaults } from "./config";
export { misconfiguredBody, startApp } from "./start-app";
export type { TraceFields } from "./trace-context";
