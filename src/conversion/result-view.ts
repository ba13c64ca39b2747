import { Unreadable, unreadable } from "./result-problem";

/** What JSON writes in the place of a value a converter returned, or why it cannot (result-walk.ts). */

const CANNOT_CARRY_NUMBER = ", which JSON cannot carry (it would arrive as null)";
const CANNOT_CARRY_OBJECT = ", which JSON cannot carry (it would arrive as {})";

/** Objects JSON would write as `{}` (or a list of indices), losing what they hold: refused, not sent so. */
const OPAQUE: ReadonlyArray<[abstract new (...args: never[]) => object, string]> = [
  [Map, "a Map"],
  [Set, "a Set"],
  [WeakMap, "a WeakMap"],
  [WeakSet, "a WeakSet"],
  [Promise, "a promise"],
  [RegExp, "a RegExp"],
  [Error, "an Error"],
  [ArrayBuffer, "an ArrayBuffer"],
];

/** A value JSON writes as it is: NaN and ±Infinity refused; undefined, functions and symbols left out (null in a list). */
export function scalar(value: unknown, inArray: boolean): unknown {
  switch (typeof value) {
    case "number":
      if (!Number.isFinite(value)) throw nonFinite(value);
      return value;
    case "undefined":
    case "function":
    case "symbol":
      return inArray ? null : undefined;
    default:
      return value;
  }
}

export function nonFinite(value: number): Unreadable {
  return new Unreadable(`holds ${String(value)}`, CANNOT_CARRY_NUMBER);
}

export function isArray(value: object): boolean {
  try {
    return Array.isArray(value);
  } catch (error) {
    throw unreadable(error); // a revoked proxy
  }
}

/** A boxed primitive as JSON writes it; an object JSON would empty refused; any other as it is (its own fields). */
export function unboxed(value: object): unknown {
  if (value instanceof Number) return Number(value);
  if (value instanceof String) return String(value);
  if (value instanceof Boolean) return Boolean.prototype.valueOf.call(value);
  if (value instanceof BigInt) return BigInt.prototype.valueOf.call(value);
  for (const [type, name] of OPAQUE)
    if (value instanceof type) throw new Unreadable(`holds ${name}`, CANNOT_CARRY_OBJECT);
  if (ArrayBuffer.isView(value)) throw new Unreadable("holds a typed array", CANNOT_CARRY_OBJECT);
  return value;
}
