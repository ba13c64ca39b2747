import { decodeJson, isJsonObject, type JsonObject } from "../../json";
import { goDecodeError } from "./go-decoding";
import { goQuote, groupVersionText, jsonKindInGo, parseGroupVersion } from "./go-text";
import { conversionReviewType } from "./review-types";
/**
 * The apiserver's decoding of a 2xx body into the review version it sent (apimachinery's JSON
 * serializer and versioning codec over the webhook client's scheme): the body's own
 * apiVersion/kind pick the Go type, missing parts taken from the sent one; any other type than
 * the sent review fails, and so does a value of the wrong JSON type in a known field.
 */

export type DecodedReview = { ok: true; reply: JsonObject } | { ok: false; error: string };

const GROUP = "apiextensions.k8s.io";

const FOLDED = new Map<string, "apiVersion" | "kind">([
  ["apiversion", "apiVersion"],
  ["kind", "kind"],
]);

/** `SimpleMetaFactory.Interpret`'s anonymous struct, as Go prints its type. */
const FIND_KIND_TYPE =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/**
 * Kinds the webhook client's scheme knows besides the reviews (CRDs, metav1's options, watch
 * event and unversioned types), with the Go type name a failed conversion from them prints.
 */
function registeredType(group: string, version: string, kind: string): string | undefined {
  if (group === GROUP && (version === "v1" || version === "v1beta1")) {
    if (["ConversionReview", "CustomResourceDefinition", "CustomResourceDefinitionList"].includes(kind))
      return `${version}.${kind}`;
    const meta = [
      "WatchEvent",
      "ListOptions",
      "GetOptions",
      "DeleteOptions",
      "CreateOptions",
      "UpdateOptions",
      "PatchOptions",
    ];
    if (meta.includes(kind)) return `v1.${kind}`;
  }
  if (group === "" && version === "v1") {
    if (["Status", "APIVersions", "APIGroupList", "APIGroup", "APIResourceList"].includes(kind)) return `v1.${kind}`;
  }
  return undefined;
}

export function decodeReview(body: string, sentVersion: string): DecodedReview {
  const failed = (error: string): DecodedReview => ({ ok: false, error });
  let value: unknown;
  try {
    value = decodeJson(body).value;
  } catch (error) {
    return failed((error as Error).message);
  }
  // A JSON null decodes to the zero review; other non-objects fail reading apiVersion/kind.
  if (value === null) value = {};
  if (!isJsonObject(value)) {
    return failed(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKindInGo(value)} into Go value of type ${FIND_KIND_TYPE}`,
    );
  }
  // Interpret reads these two with encoding/json, which matches keys case-insensitively; the
  // decode after it does not.
  const typeMeta: Record<"apiVersion" | "kind", string> = { apiVersion: "", kind: "" };
  for (const [name, field] of Object.entries(value)) {
    const key = FOLDED.get(name.toLowerCase());
    if (key === undefined || field === null) continue;
    if (typeof field !== "string") {
      return failed(
        `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKindInGo(field)} into Go struct field .${key} of type string`,
      );
    }
    typeMeta[key] = field;
  }
  const parsed = parseGroupVersion(typeMeta.apiVersion);
  if (!parsed) return failed(`unexpected GroupVersion string: ${typeMeta.apiVersion}`);
  // gvkWithDefaults: what is missing comes from the review version sent.
  let { group, version } = parsed;
  if (version === "" && group === "") [group, version] = [GROUP, sentVersion];
  if (version === "" && group === GROUP) version = sentVersion;
  const kind = typeMeta.kind || "ConversionReview";

  if (group === GROUP && version === sentVersion && kind === "ConversionReview") {
    const typeError = goDecodeError(value, conversionReviewType(sentVersion));
    return typeError ? failed(typeError) : { ok: true, reply: value };
  }
  const registered = registeredType(group, version, kind);
  if (!registered) {
    // The scheme's name is the file and line of its creation, which moves between releases.
    return failed(
      `no kind ${goQuote(kind)} is registered for version ${goQuote(groupVersionText({ group, version }))} in scheme "k8s.io/apiserver/pkg/util/webhook/client.go"`,
    );
  }
  if (registered === `${version}.ConversionReview`) {
    const typeError = goDecodeError(value, conversionReviewType(version));
    if (typeError) return failed(typeError);
  }
  return failed(`converting (${registered}) to (${sentVersion}.ConversionReview): unknown conversion`);
}
