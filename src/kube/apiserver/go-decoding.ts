import { isJsonObject } from "../../json";
import { jsonKindInGo } from "./go-text";
/**
 * encoding/json decoding a JSON value into a typed Go struct, for its one way to fail that a
 * JavaScript reader never sees: a value of the wrong JSON type in a known field. Go keeps the
 * first such error and fails the whole decode; unknown fields and nulls pass.
 */

export type GoType =
  | { kind: "string"; go: string }
  | { kind: "int"; go: "int32" | "int64" }
  | { kind: "struct"; go: string; name: string; fields: Record<string, GoType> }
  | { kind: "slice"; go: string; of: GoType }
  | { kind: "raw" }; // runtime.RawExtension: any JSON, read later

const INT_RANGE = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
} as const;

interface Context {
  struct: string;
  path: string[];
}

function typeError(value: unknown, type: { go: string }, context: Context, what = jsonKindInGo(value)): string {
  const where = context.path.length > 0 ? `Go struct field ${context.struct}.${context.path.join(".")}` : "Go value";
  return `json: cannot unmarshal ${what} into ${where} of type ${type.go}`;
}

function intError(value: unknown, type: { kind: "int"; go: "int32" | "int64" }, context: Context) {
  if (typeof value !== "number" && typeof value !== "bigint") return typeError(value, type, context);
  // Go parses the literal as an integer: a fraction or an out-of-range value fails, named by its text.
  const [low, high] = INT_RANGE[type.go];
  const whole = typeof value === "bigint" || Number.isInteger(value);
  if (whole && BigInt(value) >= low && BigInt(value) <= high) return undefined;
  return typeError(value, type, context, `number ${String(value)}`);
}

/** The first type error decoding `value` into `type`, in document order, as Go words it; undefined if none. */
export function goDecodeError(
  value: unknown,
  type: GoType,
  context: Context = { struct: "", path: [] },
): string | undefined {
  if (value === null || type.kind === "raw") return undefined;
  switch (type.kind) {
    case "string":
      return typeof value === "string" ? undefined : typeError(value, type, context);
    case "int":
      return intError(value, type, context);
    case "slice": {
      if (!Array.isArray(value)) return typeError(value, type, context);
      for (const item of value) {
        const error = goDecodeError(item, type.of, context);
        if (error) return error;
      }
      return undefined;
    }
    case "struct": {
      if (!isJsonObject(value)) return typeError(value, type, context);
      for (const [key, item] of Object.entries(value)) {
        if (!Object.hasOwn(type.fields, key)) continue;
        const error = goDecodeError(item, type.fields[key]!, { struct: type.name, path: [...context.path, key] });
        if (error) return error;
      }
      return undefined;
    }
  }
}
