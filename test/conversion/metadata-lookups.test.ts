import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { quote } from "../../src/json/clip";
import { copyJson, goTypeName, isJsonObject, type JsonObject, jsonTypeName } from "../../src/json/values";
import { annotationsError, labelsError } from "../../src/kube/labels";
import { guardMetadata, privateMetadata, sourceMetadataError } from "../../src/conversion/metadata-guard";
import { runs } from "../property-runs";

/**
 * The metadata checks and copy read maps in bulk and fields by name; these references read
 * them key by key, the plain way. Both must agree on every value, message and throw.
 */

const MUTABLE = ["labels", "annotations"] as const;

function referenceSourceError(metadata: JsonObject): string | undefined {
  for (const field of ["name", "namespace", "uid", "generateName", "resourceVersion"]) {
    const value = metadata[field];
    if (value !== undefined && value !== null && typeof value !== "string")
      return `metadata.${field} is ${jsonTypeName(value)}, not a string`;
  }
  for (const field of MUTABLE) {
    const value = metadata[field];
    if (value === undefined || value === null) continue;
    if (!isJsonObject(value)) return `metadata.${field} is ${jsonTypeName(value)}, not a map of strings`;
    const bad = Object.keys(value).find((key) => typeof value[key] !== "string");
    if (bad !== undefined) return `metadata.${field}[${quote(bad)}] is ${jsonTypeName(value[bad])}, not a string`;
  }
  return undefined;
}

function referenceGuard(original: JsonObject | undefined, converted: unknown): JsonObject {
  let metadata: JsonObject = original ?? {};
  const fromConverter = isJsonObject(converted) ? converted : undefined;
  for (const field of MUTABLE) {
    const next = fromConverter?.[field];
    if (next === undefined || next === null) continue;
    if (!isJsonObject(next))
      throw new Error(`invalid metadata.${field} of type ${goTypeName(next)} in converted object`);
    const bad = Object.keys(next).find((key) => typeof next[key] !== "string");
    if (bad !== undefined)
      throw new Error(
        `metadata.${field}[${bad}] must be a string, but is ${goTypeName(next[bad])} in converted object`,
      );
    const strings = next as Record<string, string>;
    const before = original?.[field];
    const same =
      isJsonObject(before) &&
      Object.keys(before).length === Object.keys(strings).length &&
      Object.keys(strings).every((key) => before[key] === strings[key]);
    if (same) continue;
    const invalid = field === "labels" ? labelsError(strings) : annotationsError(strings);
    if (invalid) throw new Error(invalid);
    metadata = { ...metadata, [field]: strings };
  }
  return metadata;
}

const outcome = (run: () => unknown) => {
  try {
    return { value: JSON.stringify(run()) };
  } catch (error) {
    return { thrown: (error as Error).message };
  }
};

const key = fc.constantFrom("app", "tier", "example.com/owner", "Bad Key", "constructor", "__proto__");
const mapValue = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom<unknown>("a", "b", "") },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(1, null, true, { a: "b" }, ["x"]) },
);
const map = fc.dictionary(key, mapValue, { maxKeys: 4 });
const field = fc.oneof(
  { weight: 6, arbitrary: map as fc.Arbitrary<unknown> },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, null, "text", 3, ["x"]) },
);
const metadata = fc
  .record(
    {
      name: fc.oneof(fc.constantFrom<unknown>("a", "b"), fc.constantFrom<unknown>(1, null, {}, [])),
      namespace: fc.constantFrom<unknown>("ns", 2),
      uid: fc.constantFrom<unknown>("u", false),
      generateName: fc.constantFrom<unknown>("g-", 4),
      resourceVersion: fc.constantFrom<unknown>("9", 9),
      labels: field,
      annotations: field,
      finalizers: fc.constant<unknown>(["f"]),
      managedFields: fc.constant<unknown>([{ manager: "m" }]),
      ownerReferences: fc.constant<unknown>([{ name: "o", uid: "1" }]),
    },
    { requiredKeys: [] },
  )
  // As JSON.parse makes it: `__proto__` keys are plain data.
  .map((value) => JSON.parse(JSON.stringify(value)) as JsonObject);

/** What a converter does to the labels and annotations of its copy. */
const change = fc.constantFrom("keep", "reorder", "edit", "add", "drop", "empty", "replace");

function changed(copy: JsonObject, how: string, replacement: unknown): JsonObject {
  const out: JsonObject = { ...copy };
  for (const f of MUTABLE) {
    const value = out[f];
    if (!isJsonObject(value)) continue;
    const entries = Object.entries(value);
    const rebuilt = (pairs: Array<[string, unknown]>) => JSON.parse(JSON.stringify(Object.fromEntries(pairs)));
    if (how === "reorder") out[f] = rebuilt(entries.reverse());
    else if (how === "edit" && entries.length > 0) (value as JsonObject)[entries[0]![0]] = "edited";
    else if (how === "add") (value as JsonObject)["added.example.com/k"] = "v";
    else if (how === "drop") delete out[f];
    else if (how === "empty") out[f] = {};
    else if (how === "replace") out[f] = replacement;
  }
  return out;
}

/**
 * What other code in the process may have done to Object.prototype: an enumerable field (for-in
 * yields it on every object), or a non-enumerable one (a read by name finds it on any object that
 * lacks its own). Labels and annotations, as both, with a value of each kind.
 */
const pollution = fc.constantFrom(
  undefined,
  { name: "labels", enumerable: true, value: { app: "x" } },
  { name: "labels", enumerable: false, value: { app: "x" } },
  { name: "annotations", enumerable: true, value: 7 },
  { name: "annotations", enumerable: false, value: { note: "y" } },
  { name: "app", enumerable: true, value: 3 },
  { name: "tier", enumerable: true, value: "b" },
  { name: "extra", enumerable: true, value: { a: "b" } },
);
type Pollution = { name: string; enumerable: boolean; value: unknown } | undefined;

/** `run` with Object.prototype polluted as `how` says, cleaned up after (fast-check runs clean). */
function pollutedWith<T>(how: Pollution, run: () => T): T {
  if (how === undefined) return run();
  Object.defineProperty(Object.prototype, how.name, {
    value: how.value,
    enumerable: how.enumerable,
    configurable: true,
    writable: true,
  });
  try {
    return run();
  } finally {
    delete (Object.prototype as Record<string, unknown>)[how.name];
  }
}

/** Some maps given a prototype of their own, holding fields of its own (enumerable and not). */
function withPrototypes(metadata: JsonObject, inherited: JsonObject): JsonObject {
  const out: JsonObject = { ...metadata };
  for (const field of MUTABLE) {
    const value = out[field];
    if (!isJsonObject(value) || Object.keys(value).length % 2 === 1) continue;
    const prototype = Object.create(inherited) as JsonObject;
    Object.defineProperty(prototype, "hidden", { value: 5, enumerable: false });
    const map = Object.create(prototype) as JsonObject;
    for (const [name, item] of Object.entries(value))
      Object.defineProperty(map, name, { value: item, enumerable: true, writable: true, configurable: true });
    out[field] = map;
  }
  return out;
}
const inheritedFields = fc.dictionary(key, mapValue, { maxKeys: 3 }).map((value) => JSON.parse(JSON.stringify(value)));

describe("metadata read in bulk and by name, as key by key", () => {
  it("the same problem with an object's own metadata, or none", () => {
    fc.assert(
      fc.property(metadata, (value) => {
        expect(sourceMetadataError(value)).toBe(referenceSourceError(value));
      }),
      { numRuns: runs(500) },
    );
  });

  it("the converter's private copy equals the metadata, shares managedFields and nothing else", () => {
    fc.assert(
      fc.property(metadata, (value) => {
        if (sourceMetadataError(value) !== undefined) return; // never copied
        const copy = privateMetadata(value);
        expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
        expect(copy).toEqual(copyJson(value));
        for (const [name, item] of Object.entries(copy)) {
          if (typeof item !== "object" || item === null) continue;
          if (name === "managedFields") expect(item).toBe(value.managedFields);
          else expect(item).not.toBe(value[name]);
        }
      }),
      { numRuns: runs(300) },
    );
  });

  it("the same check and copy whatever the maps inherit, and with Object.prototype polluted", () => {
    fc.assert(
      fc.property(metadata, inheritedFields, pollution, (plain, inherited, how) => {
        const value = withPrototypes(plain, inherited);
        // Fields are read by name in both: a polluted Object.prototype may lend one.
        const expected = pollutedWith(how, () => referenceSourceError(value));
        expect(pollutedWith(how, () => sourceMetadataError(value))).toBe(expected);
        if (expected !== undefined) return;
        const copy = pollutedWith(how, () => privateMetadata(value));
        expect(Object.keys(copy)).toEqual(Object.keys(value));
        expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
        for (const [name, item] of Object.entries(copy)) {
          if (typeof item !== "object" || item === null) continue;
          if (name === "managedFields") expect(item).toBe(value.managedFields);
          else expect(item).not.toBe(value[name]);
        }
      }),
      { numRuns: runs(500) },
    );
  });

  it("the same guarded metadata, or the same refusal, whatever the converter did to labels and annotations", () => {
    fc.assert(
      fc.property(metadata, change, field, (value, how, replacement) => {
        if (sourceMetadataError(value) !== undefined) return;
        const converted = changed(privateMetadata(value), how, replacement);
        const again = changed(privateMetadata(value), how, replacement);
        expect(outcome(() => guardMetadata(value, converted))).toEqual(outcome(() => referenceGuard(value, again)));
      }),
      { numRuns: runs(500) },
    );
  });
});
