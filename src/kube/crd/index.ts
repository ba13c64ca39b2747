export {
  type Bound,
  countBound,
  isMapSchema,
  mapValues,
  keepsUnknownFields,
  OBJECT_ENVELOPE,
  shapeOf,
  type OpenApiSchema,
} from "./schema";
export { canonicalJson, itemIdentity, matchesSchema, firstViolation, isMultipleOf } from "./value-check";
export { patternMatches, patternSyntaxError, proposingRegExp } from "./re2-pattern";
export { INT32_MAX, INT32_MIN } from "./formats";
export { pruneLikeApiserver } from "./prune";
export { celRules } from "./cel-rules";
export { ManifestError, parseManifests, yamlDocuments, yamlDocumentValue } from "./manifests";
export { readCrds, readCrd, CrdReadError, crdsIn, type Crd, type CrdManifest, type CrdVersion } from "./crd-document";
export { diffSchemas, isSameStructure, type SchemaDiff } from "./schema-diff";
