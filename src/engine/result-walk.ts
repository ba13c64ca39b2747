import { clip } from "../clip";
import { thrownText } from "./failure-messages";
import type { JsonObject } from "./json-values";
import { withOwnProtoField } from "./proto-keys";

/**
 * The copy of a converter's result that converter-result.ts makes: each value read once, as
 * JSON.stringify reads it, into new plain objects and arrays. Every read of the converter's
 * values is here, and what one throws becomes an `Unreadable` at the path being read.
 */

type Key = string | number;

/** What is wrong with a converter's result; where is the walk's path when it is thrown. */
export class Unreadable {
  constructor(
    /** What the message says of the field: `holds NaN`, `could not be read`. */
    readonly problem: string,
    /** What follows the field's path: `: TypeError: …`, `, which JSON cannot carry …`. */
    readonly detail = "",
    /** For a cycle: how many keys of the path lead to the object it comes back to. */
    readonly backTo?: number,
  ) {}
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
  /** The keys from the result to the value being read: where a problem is when one is thrown. */
  private readonly path: Key[] = [];
  /** The objects as the converter holds them along the path, `open[i]` at its first i keys: for cycles. */
  private readonly open: object[] = [];

  constructor(
    /** The values of the input's `__proto__` fields (proto-keys.ts); grows by the copies of such fields. */
    private readonly held: Set<object> | undefined,
    /** Whether for-in also yields inherited names (Object.prototype is polluted). */
    private readonly inherited: boolean,
  ) {}

  /** What JSON writes in place of the result itself (see `view`), the walk started at it. */
  top(output: unknown): unknown {
    if (typeof output !== "object" || output === null) return output;
    this.open.push(output);
    return this.view(output, "");
  }

  /** Whether a value read is an object JSON writes as `{…}` (not null, not an array). */
  isObject(value: unknown): value is JsonObject {
    return typeof value === "object" && value !== null && !this.isArray(value);
  }

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
      throw this.thrown(error);
    }
  }

  /** A copy of an object's own enumerable fields; for the chain's last step (`last`), its metadata as the guard reads it. */
  copyObject(source: object, depth: number, last = false): JsonObject {
    const copy = this.spread(source);
    for (const key in copy) {
      if (this.inherited && !Object.hasOwn(copy, key)) continue;
      if (last && key === "metadata") copy.metadata = this.lastMetadata(copy.metadata);
      else this.adoptField(copy, key, depth);
    }
    return copy;
  }

  /** The message of a problem found, naming where it is. */
  message(problem: Unreadable): string {
    const at = pathText(this.path);
    if (problem.backTo !== undefined) {
      const back = problem.backTo === 0 ? "the result itself" : pathText(this.path.slice(0, problem.backTo));
      return `the converter's result refers to itself: ${at} is ${back}`;
    }
    return `the converter's result ${problem.problem}${at ? ` at ${at}` : ""}${problem.detail}`;
  }

  /** What reading a value threw, as a problem of the result (at `key` under the path, where known). */
  thrown(error: unknown, key?: Key): Unreadable {
    if (error instanceof Unreadable) return error;
    if (key !== undefined) this.path.push(key);
    return new Unreadable("could not be read", `: ${thrownText(error)}`);
  }

  /** A field of a copy (holding the converter's value) made crdshift's own. */
  private adoptField(copy: JsonObject, key: string, depth: number): void {
    const item = copy[key];
    if (typeof item === "object") {
      if (item !== null) copy[key] = this.copyField(item, key, depth);
    } else if (typeof item === "number") {
      if (!Number.isFinite(item)) {
        this.path.push(key);
        throw nonFinite(item);
      }
    } else if (typeof item === "function" || typeof item === "symbol") {
      copy[key] = undefined; // JSON leaves them out
    }
  }

  /** The copy of an object or array met under `key` in a container `depth` levels down. */
  private copyField(item: object, key: Key, depth: number): unknown {
    this.path.push(key);
    this.open.push(item);
    const view = this.view(item, key);
    let copy: unknown;
    if (typeof view !== "object" || view === null) copy = this.scalar(view, typeof key === "number");
    else if (depth + 1 >= RECURSION_LIMIT) copy = this.copyDeep(view, item);
    else copy = this.isArray(view) ? this.copyArray(view as unknown[], depth + 1) : this.copyObject(view, depth + 1);
    // A later converter of the chain gets this copy: its loss of the field is put back by it.
    if (this.held && key === "__proto__" && typeof copy === "object" && copy !== null) this.held.add(copy);
    this.open.pop();
    this.path.pop();
    return copy;
  }

  private copyArray(source: unknown[], depth: number): unknown[] {
    let length: number;
    try {
      length = Number(source.length);
    } catch (error) {
      throw this.thrown(error);
    }
    const copy: unknown[] = [];
    for (let i = 0; i < length; i++) {
      let item: unknown;
      try {
        item = source[i];
      } catch (error) {
        throw this.thrown(error, i);
      }
      if (typeof item === "object" && item !== null) item = this.copyField(item, i, depth);
      else if (typeof item !== "string" && typeof item !== "boolean") {
        this.path.push(i);
        item = this.scalar(item, true);
        this.path.pop();
      }
      copy.push(item);
    }
    return copy;
  }

  /**
   * The last step's metadata: only labels and annotations can reach the reply (the guard reads
   * them, without toJSON, as it always did); the rest is the converter's, read by the schema
   * check alone, then replaced by the object's own.
   */
  private lastMetadata(metadata: unknown): unknown {
    if (!this.isObject(metadata)) return metadata;
    this.path.push("metadata");
    const copy = this.spread(metadata);
    const { labels, annotations } = copy;
    if (this.isObject(labels)) {
      this.path.push("labels");
      copy.labels = this.spread(labels);
      this.path.pop();
    }
    if (this.isObject(annotations)) {
      this.path.push("annotations");
      copy.annotations = this.spread(annotations);
      this.path.pop();
    }
    this.path.pop();
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
    // Cycles are looked for only down here: any cycle makes the descent endless, so it comes
    // round again below the recursion's levels, where a check costs no ordinary object.
    const openHere = new Set<object>([raw]);
    const enter = (source: object, target: JsonObject | unknown[]) => {
      let keys: string[] | undefined;
      let length: number;
      try {
        keys = Array.isArray(target) ? undefined : Object.keys(source);
        length = keys ? keys.length : Number((source as unknown[]).length);
      } catch (error) {
        throw this.thrown(error);
      }
      sources.push(source);
      targets.push(target);
      keyLists.push(keys);
      lengths.push(length);
      positions.push(0);
    };
    const top = this.isArray(root) ? [] : {};
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
        if (sources.length === 0) break; // the root: its caller leaves it
        openHere.delete(this.open.pop()!);
        this.path.pop(); // the key that led into it
        continue;
      }
      positions[at] = position + 1;
      const keys = keyLists[at];
      const key: Key = keys ? keys[position]! : position;
      this.path.push(key);
      let item: unknown;
      try {
        item = (sources[at] as Record<Key, unknown>)[key];
      } catch (error) {
        throw this.thrown(error);
      }
      if (typeof item === "object" && item !== null) {
        this.open.push(item);
        if (openHere.has(item)) throw this.cycle();
        const view = this.view(item, key);
        if (typeof view === "object" && view !== null) {
          openHere.add(item);
          const copy = this.isArray(view) ? [] : {};
          put(targets[at]!, key, copy);
          if (this.held && key === "__proto__") this.held.add(copy);
          enter(view, copy);
          continue; // the key stays on the path while its value is copied
        }
        this.open.pop();
        item = view;
      }
      put(targets[at]!, key, this.scalar(item, keys === undefined));
      this.path.pop();
    }
    return top;
  }

  /** A value JSON writes as it is: NaN and ±Infinity refused; undefined, functions and symbols left out (null in a list). */
  private scalar(value: unknown, inArray: boolean): unknown {
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

  /** The object's own enumerable fields, read once; what throws is located by name where it can be. */
  private spread(source: object): JsonObject {
    try {
      return { ...source } as JsonObject;
    } catch (error) {
      throw this.thrown(error, throwingKey(source));
    }
  }

  private isArray(value: object): boolean {
    try {
      return Array.isArray(value);
    } catch (error) {
      throw this.thrown(error); // a revoked proxy
    }
  }

  /** The cycle the walk went round: the first container open twice, and where it is again. */
  private cycle(): Unreadable {
    const first = new Map<object, number>();
    for (let i = 0; i < this.open.length; i++) {
      const seen = first.get(this.open[i]!);
      if (seen !== undefined) {
        this.path.length = i;
        return new Unreadable("refers to itself", "", seen);
      }
      first.set(this.open[i]!, i);
    }
    return new Unreadable("refers to itself");
  }
}

function nonFinite(value: number): Unreadable {
  return new Unreadable(`holds ${String(value)}`, CANNOT_CARRY_NUMBER);
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
