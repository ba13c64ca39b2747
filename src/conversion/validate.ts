import * as core from "zod/v4/core";
import { clip, REASON_LIMIT } from "../json";
import { ConversionFailure } from "./conversion-failure";
import { thrownText } from "./failure-messages";
import { isInstance, textField } from "./thrown-value";
import { issueText } from "./issue-text";

/**
 * The first issue `value` has with `schema` (`spec.size: expected number, received string ("3")`), or undefined if it
 * matches. The path may hold the object's own keys (a record's), the message its values (a
 * refinement's): clipped. What the schema's own code throws (a refinement, a transform) is the
 * schema's issue too; a check that runs out of stack (zod recurses) met an object nested too deeply.
 */
export function schemaIssue(schema: core.$ZodType, value: unknown): string | undefined {
  let result: ReturnType<typeof core.safeParse>;
  try {
    // Inside the try too: the last step's metadata is the converter's own below its top level
    // (converter-result.ts), and what reading it throws is the checked value's issue.
    if (certainlyValid(schema, value)) return undefined;
    result = core.safeParse(schema, value);
  } catch (error) {
    if (isInstance(error, RangeError) && /call stack/i.test(textField(error, "message") ?? ""))
      throw new ConversionFailure("nested-too-deeply", "nested too deeply to convert");
    return `checking it threw ${thrownText(error)}`;
  }
  if (result.success) return undefined;
  return clip(issueText(result.error.issues[0]!, value), REASON_LIMIT);
}

/**
 * A cheaper validation path for the schemas converters are written with (loose objects of
 * optional strings, numbers, booleans, enums, arrays): a plain check compiled once per schema
 * from zod's own definition, answering only "certainly valid". Everything else (a failure, or
 * any schema feature it does not know: refinements, unions, transforms, checks) goes to zod,
 * which stays the authority and writes the message. zod's parse would also build a copy of
 * every object; nothing here allocates.
 */
type Check = (value: unknown) => boolean;

const compiled = new WeakMap<core.$ZodType, Check>();

/** Whether `value` certainly matches `schema`; false means "ask zod". */
export function certainlyValid(schema: core.$ZodType, value: unknown): boolean {
  let check = compiled.get(schema);
  if (!check) {
    check = compile(schema);
    compiled.set(schema, check);
  }
  return check(value);
}

const never: Check = () => false;
const always: Check = () => true;

/**
 * The schemas being compiled, outermost first. A schema met again inside itself is recursive
 * (zod's getters make such schemas, a tree of nodes): its inner use is left to zod, so the check
 * stays finite and its depth bounded by the schema's, never by the data's.
 */
const compiling = new Set<core.$ZodType>();

function compile(schema: core.$ZodType): Check {
  if (compiling.has(schema)) return never;
  compiling.add(schema);
  try {
    return compileType(schema);
  } finally {
    compiling.delete(schema);
  }
}

function compileType(schema: core.$ZodType): Check {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- zod's definitions differ per type; each case reads its own fields
  const def = schema._zod.def as core.$ZodTypeDef & Record<string, any>;
  // Checks (lengths, patterns, refinements, formats such as z.email() or z.int(), which are
  // checks themselves) and coercion are zod's business.
  if ((def.checks?.length ?? 0) > 0 || def.coerce || schema._zod.traits.has("$ZodCheck")) return never;
  switch (def.type) {
    case "string":
      return (v) => typeof v === "string";
    case "number":
      return (v) => typeof v === "number" && Number.isFinite(v);
    case "boolean":
      return (v) => typeof v === "boolean";
    case "null":
      return (v) => v === null;
    case "unknown":
    case "any":
      return always;
    case "literal":
    case "enum": {
      const values = schema._zod.values;
      return values ? (v) => values.has(v as never) : never;
    }
    case "optional": {
      const inner = compile(def.innerType);
      return (v) => v === undefined || inner(v);
    }
    case "nullable": {
      const inner = compile(def.innerType);
      return (v) => v === null || inner(v);
    }
    case "array": {
      const element = compile(def.element);
      return (v) => Array.isArray(v) && v.every(element);
    }
    case "object":
      return compileObject(def);
    default:
      return never;
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an object schema's definition (shape, catchall)
function compileObject(def: Record<string, any>): Check {
  const shape = def.shape as Record<string, core.$ZodType>;
  const keys = Object.keys(shape);
  if (keys.includes("__proto__")) return never;
  // zod lets a key be absent only for an optional schema (optional in and out).
  const checks = keys.map((key) => compile(shape[key]!));
  const mayBeAbsent = keys.map(
    (key) => shape[key]!._zod.optin === "optional" && shape[key]!._zod.optout === "optional",
  );
  const catchall = def.catchall as core.$ZodType | undefined;
  const extra: "ignore" | "refuse" | Check =
    catchall === undefined
      ? "ignore"
      : catchall._zod.def.type === "unknown" || catchall._zod.def.type === "any"
        ? "ignore"
        : catchall._zod.def.type === "never"
          ? "refuse"
          : compile(catchall);
  const known = new Set(keys);
  return (v) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
    const object = v as Record<string, unknown>;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      // One lookup for a field that is there; `in` only when it reads undefined.
      const value = object[key];
      if (value === undefined && !(key in object)) {
        if (mayBeAbsent[i]) continue;
        return false;
      }
      if (!checks[i]!(value)) return false;
    }
    if (extra === "ignore") return true;
    for (const key in object) {
      if (known.has(key)) continue;
      if (extra === "refuse" || !extra(object[key])) return false;
    }
    return true;
  };
}
