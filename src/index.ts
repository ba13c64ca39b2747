/**
 * crdshift: define kinds, build a registry, and (for a host crdshift has no factory for) build
 * the app yourself. The platforms are subpaths: crdshift/node, crdshift/workers, crdshift/lambda,
 * crdshift/aws-cdk; the test kit is crdshift/testing.
 */

export { type AppOptions, createApp } from "./server";
export { type Config, ConfigError, type PlatformDefaults, readConfig } from "./server";
export { createJsonLogger, jsonLogger, type Logger, type LogRecord, silentLogger } from "./log";
export { createMetrics, type Metrics, type MetricsConfig, type MetricsSink } from "./metrics";
export type {
  ConversionRequest,
  ConversionResponse,
  ConversionResult,
  ConversionReview,
  ConversionReviewReply,
} from "./kube";
export type {
  ConversionContext,
  Converter,
  ConverterMap,
  EnumAlias,
  EnumTable,
  EnumValues,
  FieldDefault,
  FieldPathOf,
  KindDefinition,
  KindSpec,
  MappedVersion,
  Mapping,
  MappingRules,
  RefusalDeclarations,
  Registry,
  Schema,
} from "./conversion";
export {
  createRegistry,
  DefinitionError,
  defineKind,
  mapping,
  Refusal,
  refuse,
  STASH_ANNOTATION,
  stashFields,
  unstashFields,
} from "./conversion";
