import { isJsonObject } from "../../json";

/**
 * Dotted field paths for the mapping helpers (mapping.ts), and copy-on-write edits along them.
 * A path is field names joined by dots; `[]` after a name means "each item of this array":
 * `spec.ports[].protocol`. Nothing here mutates its input: every edit copies the objects and
 * arrays on the way to the field and shares the rest.
 */

/** One step of a path: a field name, or every item of an array. */
export type Segment = string | { each: true };

type Json = Record<string, unknown>;

const NAME = /^[^.[\]]+$/;

/** The segments of a path, or an error message. */
export function parsePath(path: string): Segment[] | string {
  if (path === "") return "a path must name a field, like spec.replicas";
  const segments: Segment[] = [];
  for (const part of path.split(".")) {
    const match = /^([^[\]]*)((?:\[\])*)$/.exec(part);
    if (!match || !NAME.test(match[1]!)) return `"${path}" is not a field path like spec.ports[].protocol`;
    segments.push(match[1]!);
    for (let i = 0; i < match[2]!.length / 2; i++) segments.push({ each: true });
  }
  return segments;
}

/** Splits a path at its last `[]`: the array part, and the part inside each item. */
export function splitAtItems(segments: Segment[]): { items: Segment[]; inside: string[] } {
  let last = -1;
  segments.forEach((segment, i) => {
    if (typeof segment !== "string") last = i;
  });
  return { items: segments.slice(0, last + 1), inside: segments.slice(last + 1) as string[] };
}

/**
 * `value` with `edit` applied to whatever sits at `segments` (every item, through `[]`). Where
 * the path runs into something absent or of another type, nothing changes: absent stays absent.
 */
export function updateAt(value: unknown, segments: Segment[], edit: (found: unknown) => unknown): unknown {
  if (segments.length === 0) return edit(value);
  const [head, ...rest] = segments;
  if (typeof head !== "string") {
    if (!Array.isArray(value)) return value;
    let changed = false;
    const items = value.map((item) => {
      const next = updateAt(item, rest, edit);
      if (next !== item) changed = true;
      return next;
    });
    return changed ? items : value;
  }
  if (!isJsonObject(value) || !Object.hasOwn(value, head)) return value;
  const next = updateAt(value[head], rest, edit);
  return next === value[head] ? value : { ...value, [head]: next };
}

/** The value at a path of field names (no `[]`), or undefined. */
export function getAt(value: unknown, names: string[]): unknown {
  let current = value;
  for (const name of names) {
    if (!isJsonObject(current) || !Object.hasOwn(current, name)) return undefined;
    current = current[name];
  }
  return current;
}

/** Whether a path of field names leads to a field that is present (null counts as present). */
export function hasAt(value: unknown, names: string[]): boolean {
  let current = value;
  for (const name of names) {
    if (!isJsonObject(current) || !Object.hasOwn(current, name)) return false;
    current = current[name];
  }
  return true;
}

/**
 * `object` with the field at `names` removed. With `emptied: "drop"` the objects on the way that
 * it leaves empty go too, as they held nothing but this field (a moved field's old parents; the
 * top object stays); with `"keep"` they stay, empty (a field only one version has: the object
 * around it is the other version's too, and the way back needs it to put a default in).
 */
export function removeAt(object: Json, names: string[], emptied: "drop" | "keep" = "drop"): Json {
  const [head, ...rest] = names;
  if (head === undefined || !Object.hasOwn(object, head)) return object;
  const { [head]: child, ...others } = object;
  if (rest.length === 0) return others;
  if (!isJsonObject(child)) return object;
  const next = removeAt(child, rest, emptied);
  if (next === child) return object;
  return Object.keys(next).length === 0 && emptied === "drop" ? others : { ...object, [head]: next };
}

/** `object` with `value` at `names`, creating the objects on the way that are absent. */
export function setAt(object: Json, names: string[], value: unknown): Json {
  const [head, ...rest] = names;
  if (head === undefined) return object;
  if (rest.length === 0) return { ...object, [head]: value };
  const child = object[head];
  return { ...object, [head]: setAt(isJsonObject(child) ? child : {}, rest, value) };
}

export function formatPath(segments: Segment[]): string {
  return segments.reduce<string>(
    (text, segment) => (typeof segment === "string" ? (text ? `${text}.${segment}` : segment) : `${text}[]`),
    "",
  );
}
