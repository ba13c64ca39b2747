export { type FieldPathOf } from "./field-path-types";
export { declaredLosses, type DeclaredLoss, mapping, type Mapping } from "./mapping";
export {
  type EnumAlias,
  type EnumTable,
  type EnumValues,
  type FieldDefault,
  type MappedVersion,
  type MappingRules,
} from "./mapping-rules";
export { formatPath, parsePath } from "./field-paths";
export { schemaPath } from "./schema-paths";
