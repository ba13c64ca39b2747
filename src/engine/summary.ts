import { isJsonObject } from "./plain";

/** What a review holds, for logs and metric dimensions: kinds and source versions, never contents. */
export interface ReviewSummary {
  /** Each distinct `Kind.group` (`Kind` alone for the core group), in order of appearance. */
  kinds: string[];
  /** The single kind, or `mixed` / `none`: one metric dimension value. */
  crd: string;
  /** The objects' single version, or `mixed` / `none`. */
  from: string;
}

export function summarize(objects: readonly unknown[]): ReviewSummary {
  const kinds: string[] = [];
  let from: string | undefined;
  let mixed = false;
  let lastKind: string | undefined;
  let lastApiVersion: unknown;
  for (const object of objects) {
    const apiVersion = isJsonObject(object) ? object.apiVersion : undefined;
    const kind = isJsonObject(object) && typeof object.kind === "string" ? object.kind : "?";
    // Reviews are almost always one kind in one version: skip the work when nothing changed.
    if (apiVersion === lastApiVersion && kind === lastKind) continue;
    lastApiVersion = apiVersion;
    lastKind = kind;
    const text = typeof apiVersion === "string" ? apiVersion : "?";
    const slash = text.lastIndexOf("/");
    const name = slash < 0 ? kind : `${kind}.${text.slice(0, slash)}`;
    if (!kinds.includes(name)) kinds.push(name);
    const version = text.slice(slash + 1);
    if (from === undefined) from = version;
    else if (from !== version) mixed = true;
  }
  return {
    kinds,
    crd: kinds.length === 1 ? kinds[0]! : kinds.length === 0 ? "none" : "mixed",
    from: from === undefined ? "none" : mixed ? "mixed" : from,
  };
}
