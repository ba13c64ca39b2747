/**
 * crdshift: define kinds, build a registry, and (for a host crdshift has no factory for) build
 * the app yourself. The platforms are subpaths: crdshift/node, crdshift/workers, crdshift/lambda,
 * crdshift/aws-cdk; the test kit is crdshift/testing.
 */
export { defineKind, createRegistry, DefinitionError, stashFields, unstashFields, STASH_ANNOTATION } from "./registry";
export type { Converter, ConverterMap, ConversionContext, KindDefinition, KindSpec, Registry, Schema } from "./registry";
export { createApp, type AppOptions } from "./app";
export { readConfig, ConfigError, type Config, type MetricsConfig, type MetricsSink, type PlatformDefaults } from "./config";
export { createMetrics, type Metrics } from "./metrics";
export { createJsonLogger, jsonLogger, silentLogger, type LogRecord, type Logger } from "./log";
export type { ConversionReview, ConversionReviewReply, ConversionRequest, ConversionResponse, ConversionResult } from "./protocol";
