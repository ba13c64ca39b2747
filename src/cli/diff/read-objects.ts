import { describeObject, type Registry } from "../../conversion";
import { isJsonObject, type JsonObject } from "../../json";
import { kindLabel, parseApiVersion } from "../../kube";

/** One custom resource to convert, with where it came from. */
export interface SourceObject {
  object: JsonObject;
  /** `default/local-crontab`, or `document 3` for one without a name. */
  name: string;
  /** Where in the input: `document 2`, `document 1, item 5`, `document 1, request object 0`. */
  origin: string;
  group: string;
  version: string;
  kind: string;
}

/**
 * The custom resources of what users have at hand: `kubectl get … -o json|yaml` (a `List`), a
 * multi-document file, or recorded ConversionReview requests (their `request.objects`). Objects
 * of kinds the registry does not serve are skipped, each with a note.
 */
export function readObjects(documents: unknown[], registry: Registry): { objects: SourceObject[]; skipped: string[] } {
  const objects: SourceObject[] = [];
  const skipped: string[] = [];
  const take = (value: unknown, origin: string) => {
    const who = describeObject(0, value).replace(/^object 0 \((.*)\)$/, "$1");
    const apiVersion =
      isJsonObject(value) && typeof value.apiVersion === "string" ? parseApiVersion(value.apiVersion) : undefined;
    const kind = isJsonObject(value) && typeof value.kind === "string" ? value.kind : undefined;
    if (!isJsonObject(value) || !apiVersion || !kind) {
      skipped.push(`${origin} (${who}): not a custom resource with apiVersion group/version and kind`);
      return;
    }
    if (!registry.lookup(apiVersion.group, kind)) {
      skipped.push(
        `${origin} (${who}): ${kindLabel({ kind, group: apiVersion.group })} is not a kind the registry serves`,
      );
      return;
    }
    objects.push({
      object: value,
      name: who.replace(/, uid .*$/, ""),
      origin,
      group: apiVersion.group,
      version: apiVersion.version,
      kind,
    });
  };
  documents.forEach((document, index) => {
    const origin = `document ${index + 1}`;
    if (isJsonObject(document) && document.kind === "ConversionReview") {
      const request = isJsonObject(document.request) ? document.request : {};
      const sent = Array.isArray(request.objects) ? request.objects : [];
      for (const [i, object] of sent.entries()) take(object, `${origin}, request object ${i}`);
    } else if (
      isJsonObject(document) &&
      Array.isArray(document.items) &&
      typeof document.kind === "string" &&
      document.kind.endsWith("List")
    ) {
      for (const [i, item] of document.items.entries()) take(item, `${origin}, item ${i}`);
    } else {
      take(document, origin);
    }
  });
  return { objects, skipped };
}
