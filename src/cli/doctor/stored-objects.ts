import { isJsonObject } from "../../json";
import { kindLabel, parseApiVersion } from "../../kube";
import { UsageError } from "../io";

/** How many objects of each kind (`Kind.group`) a cluster stores, as exported. */
export type StoredCounts = Map<string, number>;

const EXPORT = "kubectl get KIND -A -o yaml";

/**
 * Counts the objects of `kubectl get KIND -A -o yaml|json` (a `List`, or `<Kind>List`) or of a
 * multi-document file, per kind. Anything else is a usage error: a count read from the wrong
 * file would give an estimate that looks right and is not.
 */
export function countStoredObjects(documents: unknown[], name: string): StoredCounts {
  const counts: StoredCounts = new Map();
  const take = (value: unknown, where: string) => {
    const apiVersion =
      isJsonObject(value) && typeof value.apiVersion === "string" ? parseApiVersion(value.apiVersion) : undefined;
    if (!isJsonObject(value) || !apiVersion || typeof value.kind !== "string" || value.kind === "")
      throw new UsageError(
        `${name}: ${where} is not a custom resource with apiVersion group/version and kind (give the output of ${EXPORT})`,
      );
    const label = kindLabel({ kind: value.kind, group: apiVersion.group });
    counts.set(label, (counts.get(label) ?? 0) + 1);
  };
  documents.forEach((document, index) => {
    const where = `document ${index + 1}`;
    if (isJsonObject(document) && typeof document.kind === "string" && document.kind.endsWith("List")) {
      if (!Array.isArray(document.items))
        throw new UsageError(`${name}: ${where} is a ${document.kind} without items (give the output of ${EXPORT})`);
      document.items.forEach((item, i) => take(item, `${where}, item ${i}`));
    } else {
      take(document, where);
    }
  });
  return counts;
}

/** The kinds a file holds, for a message when none is the CRD's. */
export function describeCounts(counts: StoredCounts): string {
  if (counts.size === 0) return "no objects";
  return [...counts].map(([label, count]) => `${count} ${label}`).join(", ");
}
