import fc from "fast-check";
import {
  isMapSchema,
  keepsUnknownFields,
  mapValues,
  OBJECT_ENVELOPE,
  type OpenApiSchema,
  itemIdentity,
  matchesSchema,
  type Bound,
  countBound,
  INT32_MAX,
  INT32_MIN,
  patternMatches,
  proposingRegExp,
} from "../kube/crd";
import { joinPath, setField } from "../json";
import { boundedFilter, GenerationLimit, placed } from "./bounded-filter";
import { generationProblem } from "./generation-bounds";
import { anyJson, entriesToObject, fieldName } from "./any-json";
import { objectMetadata } from "./object-metadata";
import { integersIn, numbersIn, stringsIn, withinCount } from "./scalars";

/**
 * Random objects a CRD version's `openAPIV3Schema` accepts, read from the schema itself (not
 * from a zod schema), so they show what a registry must accept: the apiserver stores every one
 * of them. Honoured: types, required fields, enum, nullable, string lengths in code points
 * (as Go counts them, astral characters included), patterns (held to Go's RE2), the formats
 * below and int32's range, numeric bounds, item and entry counts, unique items and list map keys,
 * int-or-string, preserved unknown fields, embedded resources, and anyOf/oneOf/allOf/not (by
 * filtering). Every filter is bounded: constraints no value meets throw a GenerationLimit
 * naming the place (bounded-filter.ts) rather than drawing forever.
 * Integers without bounds include values beyond 2^53, as the `bigint` crdshift hands converters.
 * CEL rules are not evaluated: an object may break one.
 *
 * The body is returned without `apiVersion`, `kind` and `metadata`; keys such as `__proto__`
 * are plain data, as they are in the apiserver's objects.
 */
export interface CrdArbitraryOptions {
  /** Required fields may be absent too, as in server-side apply's partial objects. */
  partial?: boolean;
  /** Below this depth only required fields (and minimal lists) are generated (default 7). */
  maxDepth?: number;
}

export function crdObjectArbitrary(
  schema: OpenApiSchema | undefined,
  options: CrdArbitraryOptions = {},
): fc.Arbitrary<Record<string, unknown>> {
  const context: Context = { partial: options.partial === true, maxDepth: options.maxDepth ?? 7 };
  if (schema === undefined) return unknownFields(new Set(OBJECT_ENVELOPE), 0);
  refuseUngenerable(schema);
  return objectFor(schema, context, 0, "", { root: true }) as fc.Arbitrary<Record<string, unknown>>;
}

/** Any value the schema accepts at one place (for a field's own tests). */
export function crdValueArbitrary(schema: OpenApiSchema, options: CrdArbitraryOptions = {}): fc.Arbitrary<unknown> {
  refuseUngenerable(schema);
  return valueFor(schema, { partial: options.partial === true, maxDepth: options.maxDepth ?? 7 }, 0, [], "");
}

/** Constraints no value meets, or too large to build, end here rather than in an endless or huge draw. */
function refuseUngenerable(schema: OpenApiSchema): void {
  const problem = generationProblem(schema);
  if (problem) throw new GenerationLimit(problem);
}

interface Context {
  partial: boolean;
  maxDepth: number;
}

function valueFor(
  schema: OpenApiSchema,
  context: Context,
  depth: number,
  forced: readonly string[],
  path: string,
): fc.Arbitrary<unknown> {
  let arbitrary = baseFor(schema, context, depth, forced, path);
  if (hasJunctors(schema))
    arbitrary = boundedFilter(
      arbitrary,
      (value) => junctorsHold(schema, value),
      () => "the schema's anyOf/oneOf/allOf/not",
    );
  if (schema.nullable) arbitrary = fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 6, arbitrary });
  return placed(arbitrary, path || "the object");
}

function baseFor(
  schema: OpenApiSchema,
  context: Context,
  depth: number,
  forced: readonly string[],
  path: string,
): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum)) {
    const options = schema.enum.filter((value) => value !== null);
    return options.length > 0 ? fc.constantFrom(...options) : fc.constant(null);
  }
  if (schema["x-kubernetes-int-or-string"]) return fc.oneof(integerFor(schema), stringFor(schema));
  switch (schema.type) {
    case "object":
      return isMapSchema(schema)
        ? mapFor(schema, context, depth, path)
        : objectFor(schema, context, depth, path, { forced });
    case "array":
      return arrayFor(schema, context, depth, path);
    case "string":
      return stringFor(schema);
    case "integer":
      return integerFor(schema);
    case "number":
      return numberFor(schema);
    case "boolean":
      return fc.boolean();
    default:
      // Any value, but null only where allowed: the apiserver drops other nulls before storing.
      return schema["x-kubernetes-embedded-resource"]
        ? objectFor(schema, context, depth, path, { forced })
        : anyJson.filter((value) => value !== null);
  }
}

function objectFor(
  schema: OpenApiSchema,
  context: Context,
  depth: number,
  path: string,
  place: { root?: boolean; forced?: readonly string[] },
): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const skip = new Set<string>(place.root ? OBJECT_ENVELOPE : []);
  const required = new Set([...(context.partial ? [] : (schema.required ?? [])), ...(place.forced ?? [])]);
  // Deep down only required fields are made, unless the object's own constraints (an entry
  // count, anyOf/oneOf over fields) need optional ones: they are filtered for, and would never pass.
  const deep = depth >= context.maxDepth && !hasJunctors(schema) && schema.minProperties === undefined;
  const fields: Array<fc.Arbitrary<[string, unknown] | undefined>> = [];
  for (const key of Object.keys(properties)) {
    if (skip.has(key)) continue;
    const child = properties[key]!;
    const value = valueFor(child, context, depth + 1, [], joinPath(path, key)).map((v): [string, unknown] => [key, v]);
    if (required.has(key)) fields.push(value);
    // Absent first, with cross-shrinking: a shrunk counterexample keeps only the fields that matter.
    else if (!deep)
      fields.push(
        fc.oneof(
          { withCrossShrink: true },
          { weight: 1 + depth, arbitrary: fc.constant(undefined) },
          { weight: 2, arbitrary: value },
        ),
      );
  }
  if (schema["x-kubernetes-embedded-resource"]) fields.push(...embeddedEnvelope(context, properties));
  const known = new Set([
    ...Object.keys(properties),
    ...skip,
    ...(schema["x-kubernetes-embedded-resource"] ? OBJECT_ENVELOPE : []),
  ]);
  const extra =
    keepsUnknownFields(schema) && !deep ? unknownFields(known, depth) : fc.constant<Record<string, unknown>>({});
  let arbitrary = fc.tuple(fc.tuple(...fields), extra).map(([entries, more]) => {
    const object: Record<string, unknown> = {};
    for (const key of Object.keys(more)) setField(object, key, more[key]);
    for (const entry of entries) if (entry) setField(object, entry[0], entry[1]);
    return object;
  });
  if (schema.minProperties !== undefined || schema.maxProperties !== undefined) {
    arbitrary = boundedFilter(
      arbitrary,
      (object) =>
        withinCount(Object.keys(object).length, countBound(schema.minProperties), countBound(schema.maxProperties)),
      () => `minProperties ${schema.minProperties ?? 0}, maxProperties ${schema.maxProperties ?? "any"}`,
    );
  }
  return arbitrary;
}

/** An embedded resource's own envelope: the apiserver requires apiVersion and kind there. */
function embeddedEnvelope(
  context: Context,
  properties: Record<string, OpenApiSchema>,
): Array<fc.Arbitrary<[string, unknown] | undefined>> {
  const envelope: Array<fc.Arbitrary<[string, unknown] | undefined>> = [];
  const optional = <T>(arbitrary: fc.Arbitrary<T>) =>
    context.partial ? fc.option(arbitrary, { nil: undefined }) : arbitrary;
  if (!properties.apiVersion)
    envelope.push(
      optional(
        fc.constantFrom("v1", "apps/v1", "example.com/v1alpha1").map((v): [string, unknown] => ["apiVersion", v]),
      ),
    );
  if (!properties.kind)
    envelope.push(optional(fc.constantFrom("Pod", "ConfigMap", "Widget").map((v): [string, unknown] => ["kind", v])));
  if (!properties.metadata)
    envelope.push(
      fc.option(
        objectMetadata({ partial: true }).map((v): [string, unknown] => ["metadata", v]),
        { nil: undefined },
      ),
    );
  return envelope;
}

function mapFor(schema: OpenApiSchema, context: Context, depth: number, path: string): fc.Arbitrary<unknown> {
  const min = countBound(schema.minProperties) ?? 0;
  const max = Math.min(
    countBound(schema.maxProperties) ?? Number.POSITIVE_INFINITY,
    depth >= context.maxDepth ? min : min + 3,
  );
  const values = valueFor(mapValues(schema), context, depth + 1, [], `${path}{}`);
  return fc
    .uniqueArray(fc.tuple(fieldName, values), { selector: ([key]) => key, minLength: min, maxLength: max })
    .map(entriesToObject);
}

function arrayFor(schema: OpenApiSchema, context: Context, depth: number, path: string): fc.Arbitrary<unknown> {
  const min = countBound(schema.minItems) ?? 0;
  const max = Math.min(
    countBound(schema.maxItems) ?? Number.POSITIVE_INFINITY,
    depth >= context.maxDepth ? min : min + 3,
  );
  // A list map's keys identify its items: server-side apply's partial items carry them too.
  const keys = schema["x-kubernetes-list-type"] === "map" ? (schema["x-kubernetes-list-map-keys"] ?? []) : [];
  const items = schema.items ? valueFor(schema.items, context, depth + 1, keys, `${path}[]`) : anyJson;
  const identity = itemIdentity(schema);
  return identity
    ? fc.uniqueArray(items, { selector: identity, minLength: min, maxLength: max })
    : fc.array(items, { minLength: min, maxLength: max });
}

function unknownFields(known: ReadonlySet<string>, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const key = fieldName.filter((k) => !known.has(k));
  return fc
    .uniqueArray(fc.tuple(key, depth > 4 ? fc.constant("x") : anyJson), { selector: ([k]) => k, maxLength: 2 })
    .map(entriesToObject);
}

/** OpenAPI's string words as the shared bounds: lengths in code points, as Go counts them. */
function stringFor(schema: OpenApiSchema): fc.Arbitrary<string> {
  return stringsIn({
    minLength: countBound(schema.minLength),
    maxLength: countBound(schema.maxLength),
    pattern: schema.pattern !== undefined ? proposingRegExp(schema.pattern) : undefined,
    matches:
      schema.pattern !== undefined
        ? { pattern: schema.pattern, test: (text) => patternMatches(schema.pattern!, text) }
        : undefined,
    format: schema.format,
    counts: "code-points",
  });
}

/** OpenAPI's integer bounds (exclusive ones are flags; an int64 one beyond 2^53 a bigint) as the shared ones. */
function integerBounds(schema: OpenApiSchema): [number | bigint | undefined, number | bigint | undefined] {
  const { minimum, maximum } = schema;
  return [
    minimum === undefined ? undefined : integerAbove(minimum, schema.exclusiveMinimum === true),
    maximum === undefined ? undefined : integerBelow(maximum, schema.exclusiveMaximum === true),
  ];
}

/** The least integer a lower bound allows. */
function integerAbove(bound: Bound, exclusive: boolean): number | bigint {
  if (typeof bound === "bigint") return exclusive ? bound + 1n : bound;
  return exclusive ? Math.floor(bound) + 1 : Math.ceil(bound);
}

/** The greatest integer an upper bound allows. */
function integerBelow(bound: Bound, exclusive: boolean): number | bigint {
  if (typeof bound === "bigint") return exclusive ? bound - 1n : bound;
  return exclusive ? Math.ceil(bound) - 1 : Math.floor(bound);
}

function integerFor(schema: OpenApiSchema): fc.Arbitrary<number | bigint> {
  const [low, high] = integerBounds(schema);
  if (schema.type === "integer" && schema.format === "int32") {
    // Kubernetes 1.36 checks int32's range (formats.ts): the bounds narrow to it.
    const above = low === undefined || low < INT32_MIN ? INT32_MIN : low;
    const below = high === undefined || high > INT32_MAX ? INT32_MAX : high;
    return integersIn(above, below, schema.multipleOf);
  }
  return integersIn(low, high, schema.multipleOf);
}

/** A number field holds doubles, and integers as the webhook decodes them (beyond 2^53: bigint). */
function numberFor(schema: OpenApiSchema): fc.Arbitrary<number | bigint> {
  let { minimum: min, maximum: max } = schema;
  const excluded = { minExcluded: schema.exclusiveMinimum === true, maxExcluded: schema.exclusiveMaximum === true };
  if (schema.format === "float") {
    // A 32-bit float (formats.ts): bounds beyond the largest one narrow to it.
    if (min === undefined || min < -FLOAT32_MAX) [min, excluded.minExcluded] = [-FLOAT32_MAX, false];
    if (max === undefined || max > FLOAT32_MAX) [max, excluded.maxExcluded] = [FLOAT32_MAX, false];
  }
  const [low, high] = integerBounds({
    ...schema,
    minimum: min,
    maximum: max,
    exclusiveMinimum: excluded.minExcluded,
    exclusiveMaximum: excluded.maxExcluded,
  });
  return numbersIn({ min, max, multipleOf: schema.multipleOf, ...excluded }, low, high);
}

const FLOAT32_MAX = 3.4028234663852886e38;

function hasJunctors(schema: OpenApiSchema): boolean {
  return Boolean(schema.oneOf || schema.allOf || schema.not || (schema.anyOf && !schema["x-kubernetes-int-or-string"]));
}

function junctorsHold(schema: OpenApiSchema, value: unknown): boolean {
  const { anyOf, oneOf, allOf, not } = schema;
  return matchesSchema(value, {
    anyOf: schema["x-kubernetes-int-or-string"] ? undefined : anyOf,
    oneOf,
    allOf,
    not,
  } as OpenApiSchema);
}
