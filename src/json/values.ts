/** Small helpers for JSON data: the engine only ever sees what a JSON parser produced. */

import { objectPrototypeIsPolluted } from "./polluted-prototype";

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The Go type name the apiserver prints for a decoded JSON value (`<nil>`, `string`, …). */
export function goTypeName(value: unknown): string {
  if (value === null || value === undefined) return "<nil>";
  if (Array.isArray(value)) return "[]interface {}";
  switch (typeof value) {
    case "string":
      return "string";
    case "boolean":
      return "bool";
    case "number":
      return Number.isInteger(value) ? "int64" : "float64";
    case "bigint":
      return "int64";
    case "object":
      return "map[string]interface {}";
    default:
      return typeof value;
  }
}

/**
 * Deep copy of plain JSON data. A hand loop: far cheaper than `structuredClone` on metadata,
 * which the engine copies for every object. Recursive while shallow (the common
 * case, and the fastest), iterative below that, so no depth overflows the stack.
 */
export function copyJson<T>(value: T): T {
  return copyShallow(value, 0);
}

const RECURSION_LIMIT = 64;

function copyShallow<T>(value: T, depth: number): T {
  if (typeof value !== "object" || value === null) return value;
  if (depth === RECURSION_LIMIT) return copyDeep(value);
  if (Array.isArray(value)) {
    const out = value.slice();
    for (let i = 0; i < out.length; i++) {
      const item: unknown = out[i];
      if (typeof item === "object" && item !== null) out[i] = copyShallow(item, depth + 1);
    }
    return out as T;
  }
  // A spread copies keys as data (`__proto__` too) and fastest; then the values that are objects.
  const out: JsonObject = { ...(value as JsonObject) };
  for (const key of Object.keys(out)) {
    const item = out[key];
    if (typeof item === "object" && item !== null) setField(out, key, copyShallow(item, depth + 1));
  }
  return out as T;
}

function copyDeep<T extends object>(root: T): T {
  const empty = (value: object): JsonObject | unknown[] => (Array.isArray(value) ? new Array(value.length) : {});
  const top = empty(root);
  const pending: Array<[source: object, target: JsonObject | unknown[]]> = [[root, top]];
  while (pending.length > 0) {
    const [source, target] = pending.pop()!;
    const keys = Array.isArray(source) ? undefined : Object.keys(source);
    const length = keys ? keys.length : (source as unknown[]).length;
    for (let i = 0; i < length; i++) {
      const key = keys ? keys[i]! : i;
      let item = (source as Record<string | number, unknown>)[key];
      if (typeof item === "object" && item !== null) {
        const copy = empty(item);
        pending.push([item, copy]);
        item = copy;
      }
      if (keys) setField(target as JsonObject, key as string, item);
      else (target as unknown[])[key as number] = item;
    }
  }
  return top as T;
}

/**
 * Sets a field as plain data: `__proto__` too, which assignment would take for the prototype.
 * The one such setter: the engine copies every field of a result through it, so it allocates
 * nothing and assigns directly every other key.
 */
export function setField(target: object, key: string | number, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else (target as Record<string | number, unknown>)[key] = value;
}

/**
 * Whether anything in a JSON value passes `test`: the value itself, or anything it holds.
 * Iterative, for values as deep as the apiserver sends (10,000 levels).
 */
export function holdsValue(root: unknown, test: (value: unknown) => boolean): boolean {
  if (test(root)) return true;
  if (typeof root !== "object" || root === null) return false;
  const pending: object[] = [root];
  const inheritedKeys = objectPrototypeIsPolluted();
  while (pending.length > 0) {
    const value = pending.pop() as Record<string, unknown>;
    for (const key in value) {
      if (inheritedKeys && !Object.hasOwn(value, key)) continue;
      const item = value[key];
      if (test(item)) return true;
      if (typeof item === "object" && item !== null) pending.push(item);
    }
  }
  return false;
}

/** A JSON value's type in words, for messages: "an array", "null", "a number". */
export function jsonTypeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "bigint") return "a number";
  return typeof value === "undefined" ? "missing" : `a ${typeof value}`;
}
