export {
  type ConversionContext,
  type Converter,
  type ConverterMap,
  DefinitionError,
  defineKind,
  type KindDefinition,
  type KindSpec,
  type Schema,
} from "./kind";
export { createRegistry, type Registry } from "./registry";
export type { Route, Step } from "./routes";
export { STASH_ANNOTATION, stashFields, unstashFields } from "./stash";
export { compareVersions, sortVersions } from "./version-order";
