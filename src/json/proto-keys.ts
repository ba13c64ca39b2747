/**
 * Fields named `__proto__`: legal JSON, kept by the apiserver, and plain data as JSON.parse hands
 * them over. A converter that copies them with [[Set]] (`Object.assign({}, rest, …)`, `out[key] =
 * value`) calls the prototype setter instead: an object or array value becomes the prototype of
 * the object it should have been a field of, and a string, number, boolean or null is dropped
 * without a trace. The first case carries its own evidence, the prototype is the field's value,
 * so the engine puts such values back as the fields they were. The second leaves nothing to find;
 * the test kit generates such fields so that `crdshift check` catches the converter.
 */

import { type JsonObject, setField } from "./values";

/**
 * `\u` escapes of `_`, `o`, `p`, `r`, `t`: the characters of `__proto__` (JSON's `u` is lower-case
 * only, its hex digits either case), looked for only in text that holds a `\u00` at all: on a
 * body without one, that search costs less than the expression.
 */
const PROTO_LETTER_ESCAPE = /\\u00(?:[56][fF]|7[024])/;

/**
 * Whether a request body may hold a key named `__proto__`: spelled out, or with one of its
 * characters written as a `\u` escape, which JSON allows and other clients may write. The
 * apiserver's Go encoder escapes only `<`, `>`, `&`, control characters and U+2028/U+2029, so its
 * bodies rarely match without the key; a needless match costs only a search of the objects.
 */
export function mayHoldProtoKey(text: string): boolean {
  return text.includes("__proto__") || (text.includes("\\u00") && PROTO_LETTER_ESCAPE.test(text));
}

/** The objects and arrays held under keys named `__proto__` anywhere in `value`, or undefined if none. */
export function protoKeyValues(value: unknown): Set<object> | undefined {
  let found: Set<object> | undefined;
  forEachObject(value, (object) => {
    if (!Object.hasOwn(object, "__proto__")) return;
    // An own field named __proto__ (JSON.parse makes one): it shadows the accessor.
    const held = (object as Record<string, unknown>)["__proto__"];
    if (typeof held === "object" && held !== null) {
      found ??= new Set();
      found.add(held);
    }
  });
  return found;
}

/**
 * An object whose prototype is `prototype`, the value of a `__proto__` field a converter lost to
 * the prototype setter, as the plain object it should have been: its own fields and that field
 * (result-walk.ts copies results through this, so the converter's object is left as it is).
 */
export function withOwnProtoField(object: object, prototype: object): JsonObject {
  const restored: JsonObject = { ...object };
  if (!Object.hasOwn(restored, "__proto__")) setField(restored, "__proto__", prototype);
  return restored;
}

/** Visits every object and array in `value` (an input, parsed or a copy of crdshift's) once, without recursion. */
function forEachObject(value: unknown, visit: (object: object) => void): void {
  if (typeof value !== "object" || value === null) return;
  const seen = new Set<object>([value]);
  const pending: object[] = [value];
  while (pending.length > 0) {
    const object = pending.pop()!;
    visit(object);
    for (const key of Object.keys(object)) {
      const child = (object as Record<string, unknown>)[key];
      if (typeof child === "object" && child !== null && !seen.has(child)) {
        seen.add(child);
        pending.push(child);
      }
    }
  }
}
