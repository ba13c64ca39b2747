export type { ConversionContext, Converter, ConverterMap, Schema } from "./converter";
export { DefinitionError, defineKind, type KindDefinition, type KindSpec } from "./kind";
export { createRegistry, type Registry } from "./registry";
export type { Route, Step } from "./routes";
export { STASH_ANNOTATION, stashFields, unstashFields } from "./stash";
export { compareVersions, sortVersions } from "./version-order";
export type { FieldPathOf } from "./field-path-types";
export { type Mapping, mapping } from "./mapping";
export type { EnumTable, EnumValues, FieldDefault, MappedVersion, MappingRules } from "./mapping-rules";
