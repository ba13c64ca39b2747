export { type FieldPathOf } from "./field-path-types";
export { mapping, type Mapping } from "./mapping";
export {
  type EnumTable,
  type EnumValues,
  type FieldDefault,
  type MappedVersion,
  type MappingRules,
} from "./mapping-rules";
export { formatPath, parsePath } from "./field-paths";
export { schemaPath } from "./schema-paths";
