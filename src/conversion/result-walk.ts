import { isArray, nonFinite, scalar, unboxed } from "./result-view";
import { type JsonObject, setField, withOwnProtoField } from "../json";
import { type Key, Unreadable, unreadable, within } from "./result-problem";
import { DEFAULT_MAX_OBJECT_BYTES, ResultBudget } from "./result-budget";

/**
 * The copy of a converter's result that converter-result.ts makes: each value read once, as
 * JSON.stringify reads it, into new plain objects and arrays. Every read of the converter's
 * values is here, and what one throws becomes an `Unreadable`, which collects the path to the
 * field as it travels up (nothing is tracked on the way down: most results have no problem).
 * Every value is counted as it is read (result-budget.ts), a list's length before its items.
 */

/** Levels copied by recursion, the fastest; below, an explicit stack (results nest as deep as inputs: 10,000 levels). */
const RECURSION_LIMIT = 64;

/** The apiserver's own limit on nesting, and CRDSHIFT_MAX_DEPTH's default. */
export const DEFAULT_MAX_DEPTH = 10_000;

export class ResultWalk {
  constructor(
    /** The values of the input's `__proto__` fields (proto-keys.ts); grows by the copies of such fields. */
    private readonly held: Set<object> | undefined,
    /** Whether for-in also yields inherited names (Object.prototype is polluted). */
    private readonly inherited: boolean,
    /**
     * Deepest result copied, as deep as a body may nest: a `toJSON` that returns a new object at
     * every level would otherwise grow the copy until the process runs out of memory.
     */
    private readonly maxDepth = DEFAULT_MAX_DEPTH,
    /** The bytes and time the copy may take. */
    private readonly budget = new ResultBudget(DEFAULT_MAX_OBJECT_BYTES),
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
    const budget = this.budget;
    budget.charge(1);
    // Each field: its name in quotes, a colon and a comma, then its value (at least a byte).
    for (const key in copy) {
      if (this.inherited && !Object.hasOwn(copy, key)) continue;
      const item = copy[key];
      if (typeof item === "object") {
        budget.charge(key.length + 4);
        if (item !== null && !(last && key === "metadata")) copy[key] = this.copyField(item, key, level + 1);
      } else if (typeof item === "string") {
        budget.charge(key.length + item.length + 6);
      } else if (typeof item === "number") {
        if (!Number.isFinite(item)) throw within(nonFinite(item), key);
        budget.charge(key.length + 5);
      } else if (typeof item === "function" || typeof item === "symbol") {
        copy[key] = undefined; // JSON leaves them out
      } else {
        budget.charge(key.length + 5);
      }
    }
    return copy;
  }

  /** The copy of an object or array met under `key`, `level` keys below the result. */
  private copyField(item: object, key: Key, level: number): unknown {
    try {
      const view = this.view(item, key);
      if (typeof view !== "object" || view === null) {
        // What a toJSON or a boxed primitive comes to is counted too: a toJSON may return one
        // long string from any number of places.
        const value = scalar(view, typeof key === "number");
        this.budget.charge(scalarBytes(value));
        return value;
      }
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
    const budget = this.budget;
    budget.chargeList(length);
    const copy: unknown[] = [];
    // Each item: a comma, then its value (at least a byte; a string in quotes, null four).
    for (let i = 0; i < length; i++) {
      let item: unknown;
      try {
        item = source[i];
      } catch (error) {
        throw within(error, i);
      }
      if (typeof item === "object" && item !== null) {
        budget.charge(1);
        item = this.copyField(item, i, level + 1);
      } else if (typeof item === "string") {
        budget.charge(item.length + 3);
      } else if (typeof item === "boolean") {
        budget.charge(5);
      } else {
        try {
          item = scalar(item, true);
          budget.charge(item === null ? 5 : 2);
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
      if (keys) this.budget.charge(1);
      else this.budget.chargeList(length);
      if (RECURSION_LIMIT + sources.length >= this.maxDepth)
        throw new Unreadable(
          `nests deeper than ${this.maxDepth} levels`,
          ", more than a review may (CRDSHIFT_MAX_DEPTH)",
        );
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
        // As copyObject and copyArray count: a field's name, colon and comma, or an item's comma.
        this.budget.charge(keys ? (key as string).length + 4 : 1);
        if (typeof item === "object" && item !== null) {
          if (open.has(item)) throw new Unreadable("refers to itself", "", item);
          const view = this.view(item, key);
          if (typeof view === "object" && view !== null) {
            open.add(item);
            const copy = isArray(view) ? [] : {};
            setField(targets[at]!, key, copy);
            if (this.held && key === "__proto__") this.held.add(copy);
            enter(view, copy);
            continue; // the key stays on the path while its value is copied
          }
          item = view;
        }
        const value = scalar(item, keys === undefined);
        this.budget.charge(scalarBytes(value));
        setField(targets[at]!, key, value);
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

/** At least the bytes JSON writes for a value it writes as it is (none for one it leaves out). */
function scalarBytes(value: unknown): number {
  if (typeof value === "string") return value.length + 2;
  if (value === undefined) return 0;
  return value === null || typeof value === "boolean" ? 4 : 1;
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
