import { isJsonObject, type JsonObject, showValue } from "../../json";
import type { Result } from "../../outcome";
import { groupVersionKindText, groupVersionText, goQuote, jsonKindInGo, parseGroupVersion } from "./go-text";
import { parseMediaType } from "./media-type";
import { restoreObjectMeta, sameIdentityError } from "./object-meta";
import { decodeReview } from "./review-decoding";
import { statusError } from "./status-errors";
/**
 * What the kube-apiserver does with a conversion webhook's reply (apiextensions-apiserver
 * `webhook_converter.go` and client-go's REST client), in its order and with its error texts.
 * A reply this accepts is one the apiserver accepts; `objects` are what it would then use,
 * metadata restored as it restores it. test/kube/apiserver-checks.test.ts holds it to the
 * apiserver's own test tables.
 */
export type ApiserverVerdict = Result<{ objects: JsonObject[] }, { error: string }>;

export interface SentReview {
  apiVersion: string;
  kind?: string;
  request: { uid: string; desiredAPIVersion: string; objects: unknown[] };
}

/** The content type client-go assumes when a reply has none: the one it sent. */
const SENT_CONTENT_TYPE = "application/json";

export function checkReply(sent: SentReview, status: number, body: string, contentType = ""): ApiserverVerdict {
  const first = sent.request.objects[0] as JsonObject | undefined;
  const sourceVersion = parseGroupVersion(typeof first?.apiVersion === "string" ? first.apiVersion : "") ?? {
    group: "",
    version: "",
  };
  const gvk = groupVersionKindText(sourceVersion, typeof first?.kind === "string" ? first.kind : "");
  const failed = (why: string): ApiserverVerdict => ({
    ok: false,
    error: `conversion webhook for ${gvk} failed: ${why}`,
  });
  const single = sent.request.objects.length === 1;

  // §5/§7: transport and decoding, as client-go's transformResponse and Result.Into.
  if (contentType !== "") {
    const media = parseMediaType(contentType);
    if (media.error) return failed(`Internal error occurred: ${media.error}`);
  }
  if (status < 200 || status > 206) return failed(statusError(status, body, contentType));
  if (body.length === 0) {
    return failed(
      `0-length response with status code: ${status} and content type: ${contentType || SENT_CONTENT_TYPE}`,
    );
  }
  const sentVersion = sent.apiVersion.replace("apiextensions.k8s.io/", "");
  const decoded = decodeReview(body, sentVersion);
  if (!decoded.ok) return failed(decoded.error);
  const reply = decoded.reply;

  // §6 rows 2-5 (getConvertedObjectsFromResponse); v1beta1 skips the kind and uid checks.
  if (sentVersion === "v1") {
    const apiVersion = typeof reply.apiVersion === "string" ? reply.apiVersion : "";
    const kind = typeof reply.kind === "string" ? reply.kind : "";
    if (apiVersion !== "apiextensions.k8s.io/v1" || kind !== "ConversionReview") {
      const gv = parseGroupVersion(apiVersion) ?? { group: "", version: "" };
      return failed(
        `expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got ${groupVersionKindText(gv, kind)}`,
      );
    }
  }
  const response = reply.response;
  if (!isJsonObject(response)) return failed("no response provided");
  if (sentVersion === "v1") {
    const uid = typeof response.uid === "string" ? response.uid : "";
    if (uid !== sent.request.uid)
      return failed(`expected response.uid=${goQuote(sent.request.uid)}, got ${goQuote(uid)}`);
  }
  const result = isJsonObject(response.result) ? response.result : {};
  const resultStatus = typeof result.status === "string" ? result.status : "";
  if (resultStatus !== "Success") {
    if (typeof result.message === "string" && result.message !== "") return failed(result.message);
    return failed(`response.result.status was '${resultStatus}', not 'Success'`);
  }
  const converted = Array.isArray(response.convertedObjects) ? response.convertedObjects : [];
  if (converted.length !== sent.request.objects.length) {
    return {
      ok: false,
      error: `conversion webhook for ${gvk} returned ${converted.length} objects, expected ${sent.request.objects.length}`,
    };
  }

  // §6 rows 7-11, per object. A single object and a list word them differently.
  const desired = parseGroupVersion(sent.request.desiredAPIVersion) ?? { group: "", version: "" };
  const objects: JsonObject[] = [];
  for (let i = 0; i < converted.length; i++) {
    const original = sent.request.objects[i] as JsonObject;
    const object: unknown = converted[i];
    const invalid = (why: string) => ({
      ok: false as const,
      error: `conversion webhook for ${gvk} returned invalid converted object at index ${i}: ${why}`,
    });
    const atIndex = (why: string) =>
      single
        ? { ok: false as const, error: `conversion webhook for ${gvk} returned invalid object at index 0: ${why}` }
        : invalid(why);

    const unreadable = objectReadError(object);
    if (unreadable !== undefined) return single ? { ok: false, error: unreadable } : invalid(unreadable);
    const read = object as JsonObject;
    const gv = parseGroupVersion(typeof read.apiVersion === "string" ? read.apiVersion : "")!;
    if (gv.group !== desired.group || gv.version !== desired.version) {
      return atIndex(`invalid groupVersion (expected ${groupVersionText(desired)}, received ${groupVersionText(gv)})`);
    }
    const originalKind = typeof original.kind === "string" ? original.kind : "";
    if (read.kind !== originalKind)
      return atIndex(`invalid kind (expected ${originalKind}, received ${String(read.kind)})`);
    const identity = sameIdentityError(original, read);
    if (identity) {
      return single
        ? { ok: false, error: `conversion webhook for ${gvk} returned invalid object: ${identity}` }
        : invalid(identity);
    }
    const restored = restoreObjectMeta(original, read);
    if (typeof restored === "string") {
      return {
        ok: false,
        error: single
          ? `conversion webhook for ${gvk} returned invalid metadata: ${restored}`
          : `conversion webhook for ${gvk} returned invalid metadata in object at index ${i}: ${restored}`,
      };
    }
    objects.push(restored);
  }
  return { ok: true, objects };
}

/**
 * Why Unstructured cannot read a converted object (`getRawExtensionObject`), or undefined. A
 * JSON null arrives as an empty RawExtension; an apiVersion it cannot parse hides the kind too.
 */
function objectReadError(object: unknown): string | undefined {
  if (object === null) return "unexpected end of JSON input";
  if (!isJsonObject(object)) {
    return `json: cannot unmarshal ${jsonKindInGo(object)} into Go value of type map[string]interface {}`;
  }
  const apiVersion = typeof object.apiVersion === "string" ? object.apiVersion : "";
  const kind = typeof object.kind === "string" ? object.kind : "";
  if (kind === "" || parseGroupVersion(apiVersion) === undefined) {
    // The object as Go's encoder writes it: int64 as its digits, never clipped.
    return `Object 'Kind' is missing in '${showValue(object, Number.POSITIVE_INFINITY)}'`;
  }
  return undefined;
}
