/** crdshift's public API: define kinds, build a registry, serve it. */
export { defineKind, createRegistry, DefinitionError } from "./registry";
export type { Converter, ConverterMap, ConversionContext, KindDefinition, KindSpec, Registry, Schema } from "./registry";
export { createApp, type AppOptions } from "./app";
export { readConfig, ConfigError, DEFAULTS, type Config } from "./config";
export { convertObjects, type BatchOptions, type BatchResult, type FailureCause } from "./engine";
export { createJsonLogger, jsonLogger, silentLogger, type LogRecord, type Logger } from "./log";
export * from "./protocol";
