import type * as core from "zod/v4/core";
import { joinPath, showValue } from "../json";

/**
 * A zod issue in words a converter author can act on: where, what the schema expected and what
 * it received (`spec.replicas: expected number, received string`); zod/mini says only "Invalid
 * input". With `values`, the value too, clipped (`received string ("3")`): for the test kit and
 * the CLI, never the webhook, whose messages reach logs that hold no object contents. Built only
 * for a value that failed.
 */
export function issueText(issue: core.$ZodIssue, root: unknown, values = false): string {
  const path = issuePath(issue.path);
  const value = valueAt(root, issue.path);
  const received = (v: unknown) => receivedText(v, values);
  const detail = issueDetail(issue, value, received);
  const own = issue.message;
  // A message the schema's author wrote is theirs to keep; zod's own default says less than ours.
  const text = detail === undefined ? own : /^Invalid input/.test(own) || own === "" ? detail : `${own} (${detail})`;
  return `${path || "the object"}: ${text}`;
}

/** `spec.rules[0].name`, as crdshift prints paths elsewhere. */
function issuePath(path: readonly PropertyKey[]): string {
  let joined = "";
  for (const part of path) joined = typeof part === "number" ? `${joined}[${part}]` : joinPath(joined, String(part));
  return joined;
}

function issueDetail(issue: core.$ZodIssue, value: unknown, received: (value: unknown) => string): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      return `expected ${issue.expected}, received ${received(value)}`;
    case "invalid_value":
      return `expected ${issue.values.length === 1 ? shown(issue.values[0]) : `one of ${issue.values.map(shown).join(", ")}`}, received ${received(value)}`;
    case "too_big":
      return `${received(value)}, above the maximum ${bound(issue.maximum, issue.origin)}${issue.inclusive === false ? " (exclusive)" : ""}`;
    case "too_small":
      return `${received(value)}, below the minimum ${bound(issue.minimum, issue.origin)}${issue.inclusive === false ? " (exclusive)" : ""}`;
    case "invalid_format":
      return `expected a ${issue.format}${issue.pattern ? ` matching ${issue.pattern}` : ""}, received ${received(value)}`;
    case "not_multiple_of":
      return `expected a multiple of ${String(issue.divisor)}, received ${received(value)}`;
    case "unrecognized_keys":
      return `unrecognized keys ${issue.keys.map((key) => JSON.stringify(key)).join(", ")}`;
    case "invalid_union":
      return `matches none of the union's options, received ${received(value)}`;
    default:
      return undefined;
  }
}

function bound(limit: number | bigint, origin: string): string {
  const unit = origin === "string" ? " characters" : origin === "array" || origin === "set" ? " items" : "";
  return `${String(limit)}${unit}`;
}

/** What the value is, and with `values` the value itself, clipped: `string ("3")`, `nothing`. */
function receivedText(value: unknown, values: boolean): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  const type = Array.isArray(value) ? "array" : typeof value;
  return values ? `${type} (${shown(value)})` : type;
}

/** A value in an issue: shorter than elsewhere, since a list of issues may show several. */
function shown(value: unknown): string {
  return showValue(value, 80);
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let node = root;
  for (const key of path) {
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}
