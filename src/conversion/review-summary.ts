import { clip, isJsonObject } from "../json";

/** What a review holds, for logs and metric dimensions: kinds and source versions, never contents. */
export interface ReviewSummary {
  /**
   * Each distinct `Kind.group` (`Kind` alone for the core group), in order of appearance, each
   * clipped; past the first few, one last entry `... and N more`.
   */
  kinds: string[];
  /** The single kind, or `mixed` / `none`: one metric dimension value. */
  crd: string;
  /** The objects' single version, or `mixed` / `none`. */
  from: string;
}

/** Kinds named in a summary: a real review holds one; a log line must not hold thousands. */
const KINDS_LISTED = 10;

export function summarize(objects: readonly unknown[]): ReviewSummary {
  const kinds = new Set<string>();
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
    kinds.add(clip(slash < 0 ? kind : `${kind}.${text.slice(0, slash)}`));
    const version = clip(text.slice(slash + 1));
    if (from === undefined) from = version;
    else if (from !== version) mixed = true;
  }
  const listed = [...kinds].slice(0, KINDS_LISTED);
  if (kinds.size > KINDS_LISTED) listed.push(`... and ${kinds.size - KINDS_LISTED} more`);
  return {
    kinds: listed,
    crd: kinds.size === 1 ? listed[0]! : kinds.size === 0 ? "none" : "mixed",
    from: from === undefined ? "none" : mixed ? "mixed" : from,
  };
}
