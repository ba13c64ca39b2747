export type { ConversionContext, Converter, ConverterMap, RefusalDeclarations, Schema } from "./converter";
export { Refusal, refuse, refusalReason } from "./refusal";
export { DefinitionError } from "./definition-error";
export { defineKind, type KindDefinition, type KindSpec } from "./kind";
export { createRegistry, type Registry, servedKinds } from "./registry";

export { STASH_ANNOTATION, stashFields, unstashFields } from "./stash";
export { sortVersions } from "./version-order";
export type { FieldPathOf } from "./mapping";
export { declaredLosses, type DeclaredLoss, type Mapping, mapping } from "./mapping";
export type { EnumAlias, EnumTable, EnumValues, FieldDefault, MappedVersion, MappingRules } from "./mapping";
export { type BatchFailure, convertObjects } from "./convert-batch";

export { issueText } from "./issue-text";
export { conversionText, firstStackFrame, thrownText } from "./failure-messages";
export { isError, isInstance, messageOf, textField } from "./thrown-value";
export { describeObject } from "./describe";

export { summarize } from "./review-summary";
export { convertBody, type BodyOutcome } from "./convert-review";
export type { ReplyBytes } from "./printed-reply";
export { DEADLINE_PASSED, withDeadline } from "./time-budget";
export { heldBeforeRead, parsedFirst, type ReviewLimits } from "./review-limits";
export { HELD_PER_CHAR, heldAtLeast } from "./held-memory";
