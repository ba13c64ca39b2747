export { clip, quote, REASON_LIMIT } from "./clip";
export { showValue } from "./show-value";
export { joinPath } from "./field-path";
export {
  decodeJson,
  encodeJson,
  decodeWithShape,
  JsonError,
  OutOfRange,
  syntaxErrorMessage,
  type Decoded,
} from "./codec";
export { isJsonObject, holdsValue, jsonTypeName, copyJson, goTypeName, setField, type JsonObject } from "./values";
export { protoKeyValues, mayHoldProtoKey, withOwnProtoField } from "./proto-keys";
export { scanBody, type BodyShape } from "./body-scan";
export { exceedsEmbedded, utf8Length } from "./size";
export { objectPrototypeIsPolluted } from "./polluted-prototype";
