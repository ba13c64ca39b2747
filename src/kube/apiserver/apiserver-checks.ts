import { goTypeName, isJsonObject, type JsonObject, decodeJson, showValue } from "../../json";
import type { Result } from "../../outcome";
import { annotationsError, labelsError } from "../labels";
/**
 * What the kube-apiserver does with a conversion webhook's reply (apiextensions-apiserver
 * `webhook_converter.go` and client-go's REST client), in its order and with its error texts.
 * A reply this accepts is one the apiserver accepts; `objects` are what it would then use,
 * metadata restored as it restores it.
 */
export type ApiserverVerdict = Result<{ objects: JsonObject[] }, { error: string }>;

export interface SentReview {
  apiVersion: string;
  kind?: string;
  request: { uid: string; desiredAPIVersion: string; objects: unknown[] };
}

const STATUS_TEXT: Record<number, string> = {
  400: "the server rejected our request for an unknown reason",
  401: "the server has asked for the client to provide credentials",
  404: "the server could not find the requested resource",
  405: "the server does not allow this method on the requested resource",
  409: "the server reported a conflict",
  422: "the server rejected our request due to an error in our request",
  429: "the server has received too many requests and has asked us to try again later",
  503: "the server is currently unable to handle the request",
  504: "the server was unable to return a response in the time allotted, but may still be processing the request",
};

export function checkReply(sent: SentReview, status: number, body: string, contentType = ""): ApiserverVerdict {
  const first = sent.request.objects[0] as JsonObject | undefined;
  const gvk = `${String(first?.apiVersion ?? "")}, Kind=${String(first?.kind ?? "")}`;
  const failed = (why: string): ApiserverVerdict => ({
    ok: false,
    error: `conversion webhook for ${gvk} failed: ${why}`,
  });
  const single = sent.request.objects.length === 1;

  // §5/§7: transport and decoding.
  if (status < 200 || status > 206) return failed(statusError(status, body, contentType));
  if (body.length === 0)
    return failed(`0-length response with status code: ${status} and content type: ${contentType}`);
  let reply: unknown;
  try {
    reply = decodeJson(body).value;
  } catch (error) {
    return failed((error as Error).message);
  }
  if (!isJsonObject(reply)) return failed("json: cannot unmarshal into Go value of type v1.ConversionReview");
  const sentVersion = sent.apiVersion.replace("apiextensions.k8s.io/", "");
  const otherVersion = sentVersion === "v1" ? "v1beta1" : "v1";
  if (reply.apiVersion === `apiextensions.k8s.io/${otherVersion}`) {
    return failed(
      `converting (${otherVersion}.ConversionReview) to (${sentVersion}.ConversionReview): unknown conversion`,
    );
  }
  // §6 rows 2-5.
  if (sentVersion === "v1" && (reply.apiVersion !== "apiextensions.k8s.io/v1" || reply.kind !== "ConversionReview")) {
    const gv = typeof reply.apiVersion === "string" ? reply.apiVersion : "/";
    return failed(
      `expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got ${gv}, Kind=${String(reply.kind ?? "")}`,
    );
  }
  const response = reply.response;
  if (!isJsonObject(response)) return failed("no response provided");
  if (sentVersion === "v1" && response.uid !== sent.request.uid) {
    return failed(
      `expected response.uid=${JSON.stringify(sent.request.uid)}, got ${JSON.stringify(response.uid ?? "")}`,
    );
  }
  const result = isJsonObject(response.result) ? response.result : {};
  if (result.status !== "Success") {
    if (typeof result.message === "string" && result.message !== "") return failed(result.message);
    return failed(`response.result.status was '${String(result.status ?? "")}', not 'Success'`);
  }
  const converted = Array.isArray(response.convertedObjects) ? response.convertedObjects : [];
  if (converted.length !== sent.request.objects.length) {
    return {
      ok: false,
      error: `conversion webhook for ${gvk} returned ${converted.length} objects, expected ${sent.request.objects.length}`,
    };
  }

  // §6 rows 7-11, per object.
  const objects: JsonObject[] = [];
  for (let i = 0; i < converted.length; i++) {
    const original = sent.request.objects[i] as JsonObject;
    const object = converted[i];
    const invalid = (why: string) => ({
      ok: false as const,
      error: single
        ? `conversion webhook for ${gvk} returned invalid object: ${why}`
        : `conversion webhook for ${gvk} returned invalid converted object at index ${i}: ${why}`,
    });
    if (!isJsonObject(object) || typeof object.kind !== "string" || object.kind === "") {
      // The object as Go's encoder writes it: int64 as its digits, never clipped.
      const why = `Object 'Kind' is missing in '${showValue(object, Number.POSITIVE_INFINITY)}'`;
      return single ? { ok: false, error: why } : invalid(why);
    }
    const desired = sent.request.desiredAPIVersion;
    const atIndex = (why: string) =>
      single
        ? { ok: false as const, error: `conversion webhook for ${gvk} returned invalid object at index 0: ${why}` }
        : invalid(why);
    if (object.apiVersion !== desired)
      return atIndex(`invalid groupVersion (expected ${desired}, received ${String(object.apiVersion)})`);
    if (object.kind !== original.kind)
      return atIndex(`invalid kind (expected ${String(original.kind)}, received ${object.kind})`);
    const before = isJsonObject(original.metadata) ? original.metadata : {};
    const after = isJsonObject(object.metadata) ? object.metadata : {};
    for (const [field, label] of [
      ["name", "name"],
      ["namespace", "namespace"],
      ["uid", "UID"],
    ] as const) {
      const a = before[field] ?? "";
      const b = after[field] ?? "";
      if (a !== b) return invalid(`must have the same ${label}: ${String(a)} != ${String(b)}`);
    }
    const restored = restoreObjectMeta(original, object);
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

/** §8: metadata comes back from the original; labels and annotations from the reply. */
function restoreObjectMeta(original: JsonObject, converted: JsonObject): JsonObject | string {
  if (!("metadata" in converted)) return "missing metadata in converted object";
  const metadata = converted.metadata;
  if (!isJsonObject(metadata)) return `invalid metadata of type ${goTypeName(metadata)} in converted object`;
  if (original.metadata === null) return "invalid metadata of type <nil> in input object";
  const before = isJsonObject(original.metadata) ? original.metadata : {};
  const result: JsonObject = { ...before };
  for (const field of ["labels", "annotations"] as const) {
    const value = metadata[field];
    if (value === undefined || value === null) {
      delete result[field]; // the apiserver deletes what the reply omits
      continue;
    }
    if (!isJsonObject(value)) return `invalid metadata.${field} of type ${goTypeName(value)} in converted object`;
    for (const [key, item] of Object.entries(value)) {
      if (typeof item !== "string") {
        return `metadata.${field}[${key}] must be a string, but is ${goTypeName(item)} in converted object`;
      }
    }
    const strings = value as Record<string, string>;
    const previous = isJsonObject(before[field]) ? (before[field] as JsonObject) : {};
    const changed =
      Object.keys(previous).length !== Object.keys(strings).length ||
      Object.keys(strings).some((k) => previous[k] !== strings[k]);
    if (changed) {
      const error = field === "labels" ? labelsError(strings) : annotationsError(strings);
      if (error) return error.replace("metadata.annotations", "metadata.annotation");
    }
    result[field] = strings;
  }
  return { ...converted, metadata: result };
}

function statusError(status: number, body: string, contentType: string): string {
  try {
    const decoded = JSON.parse(body) as JsonObject;
    if (decoded.kind === "Status" && decoded.status === "Failure" && typeof decoded.message === "string")
      return decoded.message;
  } catch {
    // not a Status
  }
  const text = contentType === "" || contentType.startsWith("text/") ? body.slice(0, 2048) : "";
  if (STATUS_TEXT[status]) return STATUS_TEXT[status]!;
  if (status === 403) return text || "unknown";
  if (status === 406 || status === 415) return text;
  if (status >= 500) return `an error on the server ("${text || "unknown"}") has prevented the request from succeeding`;
  return `the server responded with the status code ${status} but did not return more information`;
}
