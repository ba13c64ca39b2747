import { joinPath } from "../json";
import {
  canonicalJson,
  countBound,
  firstViolation,
  INT32_MAX,
  INT32_MIN,
  isMapSchema,
  keepsUnknownFields,
  mapValues,
  type OpenApiSchema,
} from "../kube/crd";

/**
 * Constraints `check` cannot generate for, found before it tries: bounds that contradict each
 * other (`minLength` above `maxLength`, more `required` fields than `maxProperties`, an enum
 * whose every value breaks the node's other rules), and sizes no object can have or check will
 * not build (a `minLength: 1e8` string, `minItems: 5e7`). Each is one sentence naming the place
 * and the constraints; undefined when nothing stands in the way. The walk is iterative (the CRD
 * reader bounds the depth) and each node is weighed once.
 */
export function generationProblem(schema: OpenApiSchema | undefined): string | undefined {
  if (schema === undefined) return undefined;
  const order: Array<{ node: OpenApiSchema; path: string }> = [];
  const stack = [{ node: schema, path: "" }];
  const seen = new Set<OpenApiSchema>();
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (seen.has(entry.node)) continue;
    seen.add(entry.node);
    order.push(entry);
    const contradiction = contradictionIn(entry.node, entry.path);
    if (contradiction) return contradiction;
    for (const { node, path } of childrenOf(entry.node, entry.path)) stack.push({ node, path });
  }
  // Children before parents, each node's least size from its children's: the first node past
  // the limit has no child past it, so its own bounds are what make it so.
  const least = new Map<OpenApiSchema, number>();
  for (const { node, path } of order.reverse()) {
    const size = leastJsonBytes(node, least);
    least.set(node, size);
    if (size > GENERATED_BYTES) return tooLarge(node, path, size);
  }
  return undefined;
}

function tooLarge(node: OpenApiSchema, path: string, size: number): string {
  const at = path || "the object";
  const why = sizeConstraints(node);
  const bytes = size.toLocaleString("en-US");
  return size > APISERVER_REQUEST_BYTES
    ? `${at}: ${why} makes every value there at least ${bytes} bytes of JSON, more than the 3 MiB the apiserver takes in a request: no object can hold it; lower the bound`
    : `${at}: ${why} makes every value there at least ${bytes} bytes of JSON, beyond the ${GENERATED_BYTES / 1024} KiB check generates for one place; check cannot try such objects`;
}

/** The apiserver's limit on a request body (3 MiB): no stored object is larger. */
const APISERVER_REQUEST_BYTES = 3 * 1024 * 1024;
/** The largest value check builds at one place, so a run of a hundred objects stays within memory and seconds. */
const GENERATED_BYTES = 256 * 1024;

function childrenOf(node: OpenApiSchema, path: string): Array<{ node: OpenApiSchema; path: string }> {
  const children: Array<{ node: OpenApiSchema; path: string }> = [];
  for (const [key, child] of Object.entries(node.properties ?? {}))
    children.push({ node: child, path: joinPath(path, key) });
  if (node.items) children.push({ node: node.items, path: `${path}[]` });
  if (isMapSchema(node)) children.push({ node: mapValues(node), path: `${path}{}` });
  for (const sub of [...(node.allOf ?? []), ...(node.anyOf ?? []), ...(node.oneOf ?? [])])
    children.push({ node: sub, path });
  return children;
}

function contradictionIn(node: OpenApiSchema, path: string): string | undefined {
  const at = path || "the object";
  const pairs = [
    ["minLength", "maxLength"],
    ["minItems", "maxItems"],
    ["minProperties", "maxProperties"],
  ] as const;
  for (const [low, high] of pairs) {
    const min = countBound(node[low]);
    const max = countBound(node[high]);
    if (min !== undefined && max !== undefined && min > max)
      return `${at}: ${low} ${min} is above ${high} ${max}: no value there is valid`;
  }
  const { minimum, maximum } = node;
  if (minimum !== undefined && maximum !== undefined) {
    const empty =
      minimum > maximum ||
      (minimum === maximum && (node.exclusiveMinimum === true || node.exclusiveMaximum === true)) ||
      (node.type === "integer" && emptyIntegerRange(node));
    if (empty) return `${at}: minimum ${minimum} and maximum ${maximum}${exclusive(node)} leave no value`;
  }
  if (
    node.type === "integer" &&
    node.format === "int32" &&
    ((minimum !== undefined && minimum > INT32_MAX) || (maximum !== undefined && maximum < INT32_MIN))
  )
    return `${at}: format int32 (${INT32_MIN} to ${INT32_MAX}) and ${minimum !== undefined && minimum > INT32_MAX ? `minimum ${minimum}` : `maximum ${maximum}`} leave no value`;
  const required = new Set(node.required ?? []);
  const maxProperties = countBound(node.maxProperties);
  if (maxProperties !== undefined && required.size > maxProperties)
    return `${at}: ${required.size} required fields (${[...required].join(", ")}) but maxProperties ${maxProperties}: no object there is valid`;
  const minProperties = countBound(node.minProperties);
  const declared = Object.keys(node.properties ?? {}).length;
  // Unknown fields are pruned, so a fixed object has at most its declared fields (the root also its envelope).
  if (
    path !== "" &&
    node.type === "object" &&
    !isMapSchema(node) &&
    !keepsUnknownFields(node) &&
    minProperties !== undefined &&
    declared < minProperties
  )
    return `${at}: minProperties ${minProperties} but only ${declared} declared field(s), and unknown fields are pruned: no object there is valid`;
  const unique = node.uniqueItems === true || node["x-kubernetes-list-type"] === "set";
  const minItems = countBound(node.minItems);
  if (unique && node.items && minItems !== undefined) {
    const distinct = distinctValues(node.items);
    if (distinct !== undefined && minItems > distinct)
      return `${at}: minItems ${minItems} of unique items, but the item schema allows only ${distinct} distinct value(s): no list there is valid`;
  }
  if (Array.isArray(node.enum)) {
    const options = node.enum.filter((value) => value !== null);
    if (options.length > 0 && options.every((value) => firstViolation(value, node, at) !== undefined))
      return `${at}: no enum value meets the node's other constraints (${firstViolation(options[0], node, at)})`;
  }
  return undefined;
}

/** How many values a schema allows, where it is a small finite number (booleans, enums, a short integer range). */
function distinctValues(node: OpenApiSchema): number | undefined {
  const withNull = node.nullable ? 1 : 0;
  if (Array.isArray(node.enum)) return new Set(node.enum.map(canonicalJson)).size;
  if (node.type === "boolean") return 2 + withNull;
  if (
    node.type === "integer" &&
    node.minimum !== undefined &&
    node.maximum !== undefined &&
    node.multipleOf === undefined
  ) {
    const least = node.exclusiveMinimum ? Math.floor(Number(node.minimum)) + 1 : Math.ceil(Number(node.minimum));
    const most = node.exclusiveMaximum ? Math.ceil(Number(node.maximum)) - 1 : Math.floor(Number(node.maximum));
    return Math.max(0, most - least + 1) + withNull;
  }
  return undefined;
}

function emptyIntegerRange(node: OpenApiSchema): boolean {
  const low = Number(node.minimum);
  const high = Number(node.maximum);
  const least = node.exclusiveMinimum ? Math.floor(low) + 1 : Math.ceil(low);
  const most = node.exclusiveMaximum ? Math.ceil(high) - 1 : Math.floor(high);
  return least > most;
}

function exclusive(node: OpenApiSchema): string {
  const flags = [node.exclusiveMinimum ? "exclusiveMinimum" : "", node.exclusiveMaximum ? "exclusiveMaximum" : ""];
  const set = flags.filter(Boolean);
  return set.length > 0 ? ` (${set.join(", ")})` : "";
}

/** The fewest bytes of JSON any value at `node` takes, from its own bounds and its children's. */
function leastJsonBytes(node: OpenApiSchema, least: Map<OpenApiSchema, number>): number {
  if (node.nullable) return 4;
  const child = (schema: OpenApiSchema | undefined) => (schema ? (least.get(schema) ?? 1) : 1);
  switch (node.type) {
    case "string":
      return 2 + (countBound(node.minLength) ?? 0);
    case "array":
      return 2 + (countBound(node.minItems) ?? 0) * (child(node.items) + 1);
    case "object": {
      const minProperties = countBound(node.minProperties) ?? 0;
      if (isMapSchema(node)) return 2 + minProperties * (child(mapValues(node)) + 4);
      let bytes = 2;
      const required = new Set(node.required ?? []);
      for (const key of required) bytes += key.length + 4 + child(node.properties?.[key]);
      // Entries beyond the required ones: `"":0,` at the least.
      return bytes + Math.max(0, minProperties - required.size) * 5;
    }
    default:
      return 1;
  }
}

function sizeConstraints(node: OpenApiSchema): string {
  const words = (["minLength", "minItems", "minProperties", "required"] as const)
    .filter((key) => node[key] !== undefined && !(Array.isArray(node[key]) && node[key].length === 0))
    .map((key) => (key === "required" ? `${node.required!.length} required field(s)` : `${key} ${node[key]}`));
  return words.length > 0 ? words.join(", ") : "what it requires";
}
