import type { GoType } from "./go-decoding";
/**
 * The Go types the apiserver decodes a webhook's reply into (apiextensions `ConversionReview`
 * v1 and v1beta1, apimachinery `metav1.Status`), field by field with their JSON names, as far as
 * decoding can fail on them.
 */

const string = (go = "string"): GoType => ({ kind: "string", go });

const LIST_META: GoType = {
  kind: "struct",
  go: "v1.ListMeta",
  name: "ListMeta",
  fields: {
    selfLink: string(),
    resourceVersion: string(),
    continue: string(),
    remainingItemCount: { kind: "int", go: "int64" },
    shardInfo: { kind: "struct", go: "v1.ShardInfo", name: "ShardInfo", fields: { selector: string() } },
  },
};

const STATUS_CAUSE: GoType = {
  kind: "struct",
  go: "v1.StatusCause",
  name: "StatusCause",
  fields: { reason: string("v1.CauseType"), message: string(), field: string() },
};

const STATUS_DETAILS: GoType = {
  kind: "struct",
  go: "v1.StatusDetails",
  name: "StatusDetails",
  fields: {
    name: string(),
    group: string(),
    kind: string(),
    uid: string("types.UID"),
    causes: { kind: "slice", go: "[]v1.StatusCause", of: STATUS_CAUSE },
    retryAfterSeconds: { kind: "int", go: "int32" },
  },
};

export const STATUS: GoType = {
  kind: "struct",
  go: "v1.Status",
  name: "Status",
  fields: {
    kind: string(),
    apiVersion: string(),
    metadata: LIST_META,
    status: string(),
    message: string(),
    reason: string("v1.StatusReason"),
    details: STATUS_DETAILS,
    code: { kind: "int", go: "int32" },
  },
};

const RAW_LIST: GoType = { kind: "slice", go: "[]runtime.RawExtension", of: { kind: "raw" } };

/** `ConversionReview` of `version` (v1 or v1beta1: the same fields, other Go package names). */
export function conversionReviewType(version: string): GoType {
  return {
    kind: "struct",
    go: `${version}.ConversionReview`,
    name: "ConversionReview",
    fields: {
      kind: string(),
      apiVersion: string(),
      request: {
        kind: "struct",
        go: `${version}.ConversionRequest`,
        name: "ConversionRequest",
        fields: { uid: string("types.UID"), desiredAPIVersion: string(), objects: RAW_LIST },
      },
      response: {
        kind: "struct",
        go: `${version}.ConversionResponse`,
        name: "ConversionResponse",
        fields: { uid: string("types.UID"), convertedObjects: RAW_LIST, result: STATUS },
      },
    },
  };
}
