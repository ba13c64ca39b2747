import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { annotationsError, labelsError } from "../../src/kube/labels";
import { objectMetadata } from "../../src/check/object-metadata";

describe("generated object metadata", () => {
  it("is what an apiserver could send: valid labels and annotations, string identity fields", () => {
    fc.assert(
      fc.property(objectMetadata(), objectMetadata({ partial: true }), (whole, partial) => {
        expect(typeof whole.name).toBe("string");
        for (const metadata of [whole, partial]) {
          expect(Object.getPrototypeOf(metadata)).toBe(Object.prototype);
          for (const field of ["name", "namespace", "uid", "resourceVersion"])
            if (field in metadata) expect(typeof metadata[field]).toBe("string");
          expect(labelsError((metadata.labels ?? {}) as Record<string, string>)).toBeUndefined();
          expect(annotationsError((metadata.annotations ?? {}) as Record<string, string>)).toBeUndefined();
        }
      }),
    );
  });

  it("leaves any field out of partial metadata, the name too", () => {
    const samples = fc.sample(objectMetadata({ partial: true }), { numRuns: 200, seed: 1 });
    expect(samples.some((metadata) => !("name" in metadata))).toBe(true);
    expect(samples.some((metadata) => "labels" in metadata && "annotations" in metadata)).toBe(true);
  });
});
