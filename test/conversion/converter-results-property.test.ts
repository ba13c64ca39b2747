import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { asJson } from "../helpers";
import { type AnyConverter, GROUP, odd, throughEngine } from "./converter-results";
import { runs } from "../property-runs";

const converted = (name: string, spec: unknown) => ({ ...odd(name), apiVersion: `${GROUP}/v2`, spec });
const withSpec =
  (spec: () => unknown): AnyConverter =>
  (object) => ({ ...object, spec: spec() });

describe("property: a result the converter holds in any way JSON reads alike converts to the same reply", () => {
  /** The value again, each object of it made over by `make` (its fields already made over). */
  const remade = (value: unknown, make: (fields: Record<string, unknown>) => object): unknown => {
    if (Array.isArray(value)) return value.map((item) => remade(item, make));
    if (typeof value !== "object" || value === null) return value;
    const fields: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(fields, key, {
        value: remade(item, make),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return make(fields);
  };
  const ways: Record<string, (fields: Record<string, unknown>) => object> = {
    frozen: (fields) => Object.freeze(fields),
    getters: (fields) => {
      const out = {};
      for (const [key, item] of Object.entries(fields))
        Object.defineProperty(out, key, { get: () => item, enumerable: true, configurable: true });
      return out;
    },
    proxied: (fields) => new Proxy(fields, {}),
    "behind a toJSON": (fields) => ({ toJSON: () => fields }),
    "without a prototype": (fields) => Object.assign(Object.create(null), fields),
  };
  for (const [way, make] of Object.entries(ways)) {
    it(way, async () => {
      await fc.assert(
        fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (spec) => {
          const plain = await throughEngine(
            withSpec(() => spec),
            [odd("a"), odd("b")],
          );
          const held = await throughEngine(
            withSpec(() => remade(spec, make)),
            [odd("a"), odd("b")],
          );
          expect(held).toEqual(plain);
          expect(plain.objects).toEqual([converted("a", spec), converted("b", spec)].map(asJson));
        }),
        { numRuns: runs(100) },
      );
    });
  }
});
