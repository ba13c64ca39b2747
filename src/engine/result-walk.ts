import { clip } from "../clip";
import { thrownText } from "./failure-messages";
import type { JsonObject } from "./json-values";
import { withOwnProtoField } from "./proto-keys";

/**
 * The copy of a converter's result that converter-result.ts makes: each value read once, as
 * JSON.stringify reads it, into new plain objects and arrays. Every read of the converter's
 * values is here, and what one throws becomes an `Unreadable`, which collects the path to the
 * field as it travels up (nothing is tracked on the way down: most results have no problem).
 */

type Key = string | number;

/** What is wrong with a converter's result, and where. */
export class Unreadable {
  /** The keys from the field up to the result, innermost first. */
  readonly keys: Key[] = [];
  /** For a cycle: the objects along the path as the converter holds them, innermost first, the result last. */
  readonly raws: unknown[] = [];

  constructor(
    /** What the message says of the field: `holds NaN`, `could not be read`. */
    readonly problem: string,
    /** What follows the field's path: `: TypeError: …`, `, which JSON cannot carry …`. */
    readonly detail = "",
    /** For a cycle: the object met again, as the converter holds it. */
    readonly target?: object,
  ) {}

  /** The message, naming the field: `the converter's result holds NaN at spec.list[1].n, …`. */
  message(): string {
    const path = [...this.keys].reverse();
    if (this.target !== undefined) {
      // Said at the cycle's first turn: the first object met again, where first and where again.
      const raws = [...this.raws].reverse();
      const seen = new Map<unknown, number>();
      for (let again = 0; again < raws.length; again++) {
        const first = seen.get(raws[again]);
        if (first !== undefined) {
          const back = first === 0 ? "the result itself" : pathText(path.slice(0, first));
          return `the converter's result refers to itself: ${pathText(path.slice(0, again))} is ${back}`;
        }
        seen.set(raws[again], again);
      }
    }
    const at = pathText(path);
    return `the converter's result ${this.problem}${at ? ` at ${at}` : ""}${this.detail}`;
  }
}

/** What reading a value threw, as a problem of the result. */
export function unreadable(error: unknown): Unreadable {
  return error instanceof Unreadable ? error : new Unreadable("could not be read", `: ${thrownText(error)}`);
}

/** `error` as a problem under `key`; `raw`: the object held there (for a cycle's message). */
function within(error: unknown, key: Key, raw?: object): Unreadable {
  const problem = unreadable(error);
  problem.keys.push(key);
  if (problem.target !== undefined) problem.raws.push(raw);
  return problem;
}

/** Levels copied by recursion, the fastest; below, an explicit stack (results nest as deep as inputs: 10,000 levels). */
const RECURSION_LIMIT = 64;

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

export class ResultWalk {
  constructor(
    /** The values of the input's `__proto__` fields (proto-keys.ts); grows by the copies of such fields. */
    private readonly held: Set<object> | undefined,
    /** Whether for-in also yields inherited names (Object.prototype is polluted). */
    private readonly inherited: boolean,
  ) {}

  /**
   * What JSON writes in the place of an object met under `key`: its toJSON's value, a boxed
   * primitive unboxed, or the object itself (its own enumerable fields are then written). An
   * object whose prototype is a lost `__proto__` field (proto-keys.ts) has the field back first.
   */
  view(value: object, key: Key): unknown {
    try {
      let prototype = Object.getPrototypeOf(value) as object | null;
      if (prototype !== Object.prototype && prototype !== null && this.held?.has(prototype) && !Array.isArray(value)) {
        value = withOwnProtoField(value, prototype);
        prototype = Object.prototype;
      }
      const toJSON = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === "function") {
        const json: unknown = toJSON.call(value, String(key));
        if (typeof json !== "object" || json === null) return json;
        value = json;
        prototype = Object.getPrototypeOf(value) as object | null;
      }
      if (prototype === Object.prototype || prototype === null || Array.isArray(value)) return value;
      return unboxed(value);
    } catch (error) {
      throw unreadable(error);
    }
  }

  /**
   * A copy of an object's own enumerable fields, `level` keys below the result. For the
   * chain's last step (`last`), the metadata is left as it is: the schema check reads it,
   * converter-result.ts its labels and annotations, and the reply holds the object's own.
   */
  copyObject(source: object, level: number, last = false): JsonObject {
    let copy: JsonObject;
    try {
      // Two spreads, two inline caches: V8 copies fast only at a site that has seen few shapes,
      // and a converter's results share theirs while the objects inside them vary.
      copy = level === 0 ? { ...source } : { ...source };
    } catch (error) {
      const key = throwingKey(source);
      throw key === undefined ? unreadable(error) : within(error, key);
    }
    for (const key in copy) {
      if (this.inherited && !Object.hasOwn(copy, key)) continue;
      const item = copy[key];
      if (typeof item === "object") {
        if (item !== null && !(last && key === "metadata")) copy[key] = this.copyField(item, key, level + 1);
      } else if (typeof item === "number") {
        if (!Number.isFinite(item)) throw within(nonFinite(item), key);
      } else if (typeof item === "function" || typeof item === "symbol") {
        copy[key] = undefined; // JSON leaves them out
      }
    }
    return copy;
  }

  /** The copy of an object or array met under `key`, `level` keys below the result. */
  private copyField(item: object, key: Key, level: number): unknown {
    try {
      const view = this.view(item, key);
      if (typeof view !== "object" || view === null) return scalar(view, typeof key === "number");
      if (level >= RECURSION_LIMIT) return this.copyDeep(view, item);
      const copy = isArray(view) ? this.copyArray(view as unknown[], level) : this.copyObject(view, level);
      // A later converter of the chain gets this copy: its loss of the field is put back by it.
      if (this.held && key === "__proto__") this.held.add(copy);
      return copy;
    } catch (error) {
      throw within(error, key, item);
    }
  }

  private copyArray(source: unknown[], level: number): unknown[] {
    let length: number;
    try {
      length = Number(source.length);
    } catch (error) {
      throw unreadable(error);
    }
    const copy: unknown[] = [];
    for (let i = 0; i < length; i++) {
      let item: unknown;
      try {
        item = source[i];
      } catch (error) {
        throw within(error, i);
      }
      if (typeof item === "object" && item !== null) item = this.copyField(item, i, level + 1);
      else if (typeof item !== "string" && typeof item !== "boolean") {
        try {
          item = scalar(item, true);
        } catch (error) {
          throw within(error, i);
        }
      }
      copy.push(item);
    }
    return copy;
  }

  /**
   * `copyObject` and `copyArray` without recursion, for what lies below the recursion's levels:
   * `root` as JSON writes it, `raw` as the converter holds it.
   */
  private copyDeep(root: object, raw: object): unknown {
    const sources: object[] = [];
    const targets: Array<JsonObject | unknown[]> = [];
    const keyLists: Array<string[] | undefined> = [];
    const lengths: number[] = [];
    const positions: number[] = [];
    // The path below the root, and the objects along it as the converter holds them.
    const path: Key[] = [];
    const raws: unknown[] = [];
    // Cycles are looked for only down here: any cycle makes the descent endless, so it comes
    // round again below the recursion's levels, where a check costs no ordinary object.
    const open = new Set<object>([raw]);
    const enter = (source: object, target: JsonObject | unknown[]) => {
      let keys: string[] | undefined;
      let length: number;
      try {
        keys = Array.isArray(target) ? undefined : Object.keys(source);
        length = keys ? keys.length : Number((source as unknown[]).length);
      } catch (error) {
        throw unreadable(error);
      }
      sources.push(source);
      targets.push(target);
      keyLists.push(keys);
      lengths.push(length);
      positions.push(0);
    };
    try {
      const top = isArray(root) ? [] : {};
      enter(root, top);
      while (sources.length > 0) {
        const at = sources.length - 1;
        const position = positions[at]!;
        if (position >= lengths[at]!) {
          sources.pop();
          targets.pop();
          keyLists.pop();
          lengths.pop();
          positions.pop();
          if (sources.length === 0) break; // the root
          open.delete(raws.pop() as object);
          path.pop();
          continue;
        }
        positions[at] = position + 1;
        const keys = keyLists[at];
        const key: Key = keys ? keys[position]! : position;
        path.push(key);
        let item = (sources[at] as Record<Key, unknown>)[key];
        raws.push(item);
        if (typeof item === "object" && item !== null) {
          if (open.has(item)) throw new Unreadable("refers to itself", "", item);
          const view = this.view(item, key);
          if (typeof view === "object" && view !== null) {
            open.add(item);
            const copy = isArray(view) ? [] : {};
            put(targets[at]!, key, copy);
            if (this.held && key === "__proto__") this.held.add(copy);
            enter(view, copy);
            continue; // the key stays on the path while its value is copied
          }
          item = view;
        }
        put(targets[at]!, key, scalar(item, keys === undefined));
        path.pop();
        raws.pop();
      }
      return top;
    } catch (error) {
      const problem = unreadable(error);
      for (let i = path.length - 1; i >= 0; i--) {
        problem.keys.push(path[i]!);
        if (problem.target !== undefined) problem.raws.push(raws[i]);
      }
      throw problem;
    }
  }
}

/** A value JSON writes as it is: NaN and ±Infinity refused; undefined, functions and symbols left out (null in a list). */
function scalar(value: unknown, inArray: boolean): unknown {
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

function nonFinite(value: number): Unreadable {
  return new Unreadable(`holds ${String(value)}`, CANNOT_CARRY_NUMBER);
}

function isArray(value: object): boolean {
  try {
    return Array.isArray(value);
  } catch (error) {
    throw unreadable(error); // a revoked proxy
  }
}

/** A boxed primitive as JSON writes it; an object JSON would empty refused; any other as it is (its own fields). */
function unboxed(value: object): unknown {
  if (value instanceof Number) return Number(value);
  if (value instanceof String) return String(value);
  if (value instanceof Boolean) return Boolean.prototype.valueOf.call(value);
  if (value instanceof BigInt) return BigInt.prototype.valueOf.call(value);
  for (const [type, name] of OPAQUE)
    if (value instanceof type) throw new Unreadable(`holds ${name}`, CANNOT_CARRY_OBJECT);
  if (ArrayBuffer.isView(value)) throw new Unreadable("holds a typed array", CANNOT_CARRY_OBJECT);
  return value;
}

/** The field whose read throws, asked again one by one (after a spread threw), or undefined. */
function throwingKey(source: object): string | undefined {
  try {
    for (const key of Object.keys(source)) {
      try {
        void (source as JsonObject)[key];
      } catch {
        return key;
      }
    }
  } catch {
    // The names themselves cannot be read: the object is where it went wrong.
  }
  return undefined;
}

/** Sets a key as plain data: `__proto__` too, which assignment would take for the prototype. */
function put(target: JsonObject | unknown[], key: Key, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else (target as Record<Key, unknown>)[key] = value;
}

/** `spec.list[1].value`, clipped. */
function pathText(path: readonly Key[]): string {
  let text = "";
  for (const key of path) {
    text += typeof key === "number" ? `[${key}]` : text ? `.${key}` : key;
    if (text.length > 1000) break;
  }
  return clip(text);
}
