import { clip, joinPath } from "../json";
import { isMapSchema, mapValues, type OpenApiSchema } from "../kube/crd";
import { CelCostExceeded, compileRule } from "./cel-evaluation";

/**
 * A CRD's CEL rules (`x-kubernetes-validations`) evaluated on a value as the apiserver evaluates
 * them on a write: at each node that has rules, `self` is the node's value, integers are CEL
 * `int`, numbers `double`, and property names CEL cannot spell are escaped as Kubernetes escapes
 * them (`namespace` -> `__namespace__`, `a-b` -> `a__dash__b`), absent fields with a default
 * given it (the apiserver defaults before it validates). Rules that compare with the stored
 * object (`oldSelf`) apply to updates only and are skipped. Evaluation is bounded as the
 * apiserver's per-call cost limit bounds it, and `matches()` is Go's RE2 (cel-evaluation.ts); a
 * rule stopped at the bound is reported and not evaluated again. The evaluator (cel-js) lacks
 * Kubernetes' own library (`isSorted`, `url`, `quantity`, `ip`…) and formats as CEL types: a rule
 * it cannot parse or evaluate is reported in `errors`, never taken as passed.
 */
export interface CelOutcome {
  /** The first rule the value breaks, in words. */
  violation?: string;
  /** Rules that could not be evaluated here, each with why. */
  errors: Array<{ path: string; rule: string; reason: string }>;
}

type Compiled = ((self: unknown) => unknown) | { error: string };
const compiled = new Map<string, Compiled>();

function compile(rule: string): Compiled {
  let entry = compiled.get(rule);
  if (!entry) {
    const rule_ = compileRule(rule);
    entry = typeof rule_ === "function" ? rule_ : { error: `cannot be parsed here: ${firstLine(rule_.error)}` };
    compiled.set(rule, entry);
  }
  return entry;
}

export function checkCelRules(value: unknown, schema: OpenApiSchema | undefined): CelOutcome {
  const outcome: CelOutcome = { errors: [] };
  if (schema) walk(value, schema, "", outcome);
  return outcome;
}

function walk(value: unknown, schema: OpenApiSchema, path: string, outcome: CelOutcome): void {
  if (outcome.violation || value === undefined || value === null) return;
  for (const { rule, message } of schema["x-kubernetes-validations"] ?? []) {
    if (/\boldSelf\b/.test(rule)) continue;
    const where = path || "the object";
    const run = compile(rule);
    if (typeof run !== "function") {
      outcome.errors.push({ path: where, rule, reason: run.error });
      continue;
    }
    let result: unknown;
    try {
      result = run(celValue(value, schema));
    } catch (error) {
      if (error instanceof CelCostExceeded) {
        // The apiserver stops such a rule too; every later object would cost as much to find out.
        const reason = `not evaluated: stopped after ${error.message} (the apiserver stops a rule past its per-call cost limit, 1,000,000, and refuses the object: "call cost exceeds limit for rule")`;
        compiled.set(rule, { error: reason });
        outcome.errors.push({ path: where, rule, reason });
      } else outcome.errors.push({ path: where, rule, reason: `evaluation failed: ${firstLine(error)}` });
      continue;
    }
    if (result !== true) {
      outcome.violation = `${where}: breaks the CEL rule ${clip(rule, 300)}${message ? ` (${message})` : ""}`;
      return;
    }
  }
  for (const sub of schema.allOf ?? []) walk(value, sub, path, outcome);
  if (Array.isArray(value)) {
    if (schema.items) for (const [i, item] of value.entries()) walk(item, schema.items, `${path}[${i}]`, outcome);
    return;
  }
  if (typeof value !== "object") return;
  const object = value as Record<string, unknown>;
  const values = schema.additionalProperties !== undefined && schema.additionalProperties !== false;
  for (const key of Object.keys(object)) {
    const child =
      schema.properties && Object.hasOwn(schema.properties, key)
        ? schema.properties[key]
        : values
          ? mapValues(schema)
          : undefined;
    if (child) walk(object[key], child, joinPath(path, key), outcome);
  }
}

/** The value as the apiserver's CEL sees it at this schema node. */
function celValue(value: unknown, schema: OpenApiSchema | undefined): unknown {
  if (value === null || value === undefined) return value;
  const type = schema?.["x-kubernetes-int-or-string"] ? "int-or-string" : schema?.type;
  if (typeof value === "number" || typeof value === "bigint") {
    if (type === "number") return Number(value);
    if (typeof value === "bigint") return value;
    return Number.isInteger(value) && type !== "number" ? BigInt(value) : value;
  }
  if (Array.isArray(value)) return value.map((item) => celValue(item, schema?.items));
  if (typeof value !== "object") return value;
  const object = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const map = schema !== undefined && isMapSchema(schema);
  for (const key of Object.keys(object)) {
    const declared = schema?.properties && Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
    const child = declared ?? (map ? mapValues(schema!) : undefined);
    const name = declared ? escapedName(key) : key;
    if (name !== undefined)
      Object.defineProperty(out, name, { value: celValue(object[key], child), enumerable: true, writable: true });
  }
  // The apiserver defaults before it validates: an absent field with a default has it.
  for (const [key, declared] of Object.entries(schema?.properties ?? {})) {
    const name = escapedName(key);
    if (declared.default !== undefined && !Object.hasOwn(object, key) && name !== undefined)
      Object.defineProperty(out, name, {
        value: celValue(declared.default, declared),
        enumerable: true,
        writable: true,
      });
  }
  return out;
}

const RESERVED = new Set(
  "true false null in as break const continue else for function if import let loop package namespace return var".split(
    " ",
  ),
);

/** Kubernetes' escaping of a property name in CEL, or undefined where CEL cannot reach it. */
function escapedName(name: string): string | undefined {
  if (RESERVED.has(name)) return `__${name}__`;
  if (!/^[A-Za-z_][A-Za-z0-9_./-]*$/.test(name)) return undefined;
  return name
    .replaceAll("__", "__underscores__")
    .replaceAll(".", "__dot__")
    .replaceAll("-", "__dash__")
    .replaceAll("/", "__slash__");
}

function firstLine(error: unknown): string {
  return clip((error instanceof Error ? error.message : String(error)).split("\n")[0]!, 200);
}
