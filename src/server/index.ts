export { createApp, type AppOptions, type Webhook } from "./app";
export { ConfigError, readConfig, WORKERS_DEFAULTS, type Config, type PlatformDefaults } from "./config";
export { misconfiguredBody, startApp } from "./start-app";
export { BUSY, declaredLength, type RequestHead } from "./admission";
export { type Lease } from "./bytes-in-flight";
export { JSON_CONTENT_TYPE, type HttpReply } from "./http-reply";
