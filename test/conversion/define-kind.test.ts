import { describe, expect, it } from "vitest";
import * as z from "zod";
import * as zm from "zod/mini";
import { createRegistry, DefinitionError, defineKind } from "../../src/conversion";

const any = z.looseObject({});
const id = <T>(o: T) => o;
const base = { group: "routes.example.com", kind: "Thing" } as const;

/** The converter names a route runs through, from its steps. */
function path(def: ReturnType<typeof defineKind>, from: string, to: string) {
  return def
    .route(from, to)
    ?.map((s) => `${s.from}>${s.to}`)
    .join(" ");
}

describe("defineKind routes any version to any other over the fewest converters", () => {
  it("adjacent-version chains: v1 -> v3 takes two steps", () => {
    const def = defineKind({
      ...base,
      versions: { v1: any, v2: any, v3: any },
      converters: { v1: { v2: id }, v2: { v1: id, v3: id }, v3: { v2: id } },
    });
    expect(path(def, "v1", "v3")).toBe("v1>v2 v2>v3");
    expect(path(def, "v3", "v1")).toBe("v3>v2 v2>v1");
    expect(path(def, "v2", "v3")).toBe("v2>v3");
  });

  it("hub and spoke: spoke to spoke goes through the hub", () => {
    const def = defineKind({
      ...base,
      versions: { hub: any, a: any, b: any, c: any },
      converters: { hub: { a: id, b: id, c: id }, a: { hub: id }, b: { hub: id }, c: { hub: id } },
    });
    expect(path(def, "a", "c")).toBe("a>hub hub>c");
    expect(path(def, "hub", "b")).toBe("hub>b");
  });

  it("a direct converter beats a chain, and ties go to the converter declared first", () => {
    const def = defineKind({
      ...base,
      versions: { v1: any, v2: any, v3: any, v4: any },
      converters: { v1: { v2: id, v3: id, v4: id }, v2: { v4: id, v1: id }, v3: { v4: id, v1: id }, v4: { v1: id } },
    });
    expect(path(def, "v1", "v4")).toBe("v1>v4");
    expect(path(def, "v2", "v3")).toBe("v2>v1 v1>v3");
    expect(path(def, "v4", "v2")).toBe("v4>v1 v1>v2");
  });

  it("a kind with one version needs no converters", () => {
    expect(defineKind({ ...base, versions: { v1: any }, converters: {} }).versions.size).toBe(1);
  });

  it("takes zod/mini schemas too", () => {
    const def = defineKind({
      ...base,
      versions: {
        v1: zm.looseObject({ a: zm.optional(zm.string()) }),
        v2: zm.looseObject({ b: zm.optional(zm.string()) }),
      },
      converters: {
        v1: { v2: ({ a, ...rest }) => ({ ...rest, b: a }) },
        v2: { v1: ({ b, ...rest }) => ({ ...rest, a: b }) },
      },
    });
    expect(path(def, "v1", "v2")).toBe("v1>v2");
  });
});

describe("defineKind refuses a broken definition at load time, naming what is wrong", () => {
  const cases: Array<[string, () => unknown, string]> = [
    [
      "a version no converter reaches",
      () =>
        defineKind({
          ...base,
          versions: { v1: any, v2: any, v3: any },
          converters: { v1: { v2: id }, v2: { v1: id } },
        }),
      "Thing.routes.example.com: no chain of converters for v1 -> v3, v2 -> v3, v3 -> v1, v3 -> v2; every version must reach every other one",
    ],
    [
      "a one-way converter",
      () => defineKind({ ...base, versions: { v1: any, v2: any }, converters: { v1: { v2: id } } }),
      "Thing.routes.example.com: no chain of converters for v2 -> v1; every version must reach every other one",
    ],
    [
      "a converter from an unknown version",
      () => defineKind({ ...base, versions: { v1: any }, converters: { v9: { v1: id } } as never }),
      'Thing.routes.example.com: converters from "v9", which is not one of its versions (v1)',
    ],
    [
      "a converter to an unknown version",
      () => defineKind({ ...base, versions: { v1: any }, converters: { v1: { v9: id } } as never }),
      'Thing.routes.example.com: converter v1 -> v9 names "v9", which is not one of its versions',
    ],
    [
      "a group without a dot",
      () => defineKind({ group: "example", kind: "Thing", versions: { v1: any }, converters: {} }),
      "group must be a DNS subdomain with at least one dot",
    ],
    [
      "a bad kind",
      () => defineKind({ group: "a.b", kind: "my-thing", versions: { v1: any }, converters: {} }),
      "kind must be a CamelCase name",
    ],
    [
      "a bad version name",
      () => defineKind({ ...base, versions: { V1: any }, converters: {} }),
      'version name "V1" is not a valid CRD version name',
    ],
    ["no versions", () => defineKind({ ...base, versions: {}, converters: {} }), "at least one version is required"],
    [
      "a version without a schema",
      () => defineKind({ ...base, versions: { v1: {} as never }, converters: {} }),
      "version v1 needs a zod schema",
    ],
    [
      "a converter that is not a function",
      () => defineKind({ ...base, versions: { v1: any, v2: any }, converters: { v1: { v2: "x" as never } } }),
      "converter v1 -> v2 is not a function",
    ],
  ];
  for (const [what, define, message] of cases) {
    it(what, () => {
      expect(define).toThrow(DefinitionError);
      expect(define).toThrow(message);
    });
  }

  it("a registry refuses the same kind twice", () => {
    const def = defineKind({ ...base, versions: { v1: any }, converters: {} });
    expect(() => createRegistry([def, def])).toThrow("Thing.routes.example.com is defined twice");
  });

  it("one registry serves the same kind name in different groups", () => {
    const a = defineKind({ group: "a.example.com", kind: "Thing", versions: { v1: any }, converters: {} });
    const b = defineKind({ group: "b.example.com", kind: "Thing", versions: { v2: any }, converters: {} });
    const registry = createRegistry([a, b]);
    expect(registry.lookup("a.example.com", "Thing")).toBe(a);
    expect(registry.lookup("b.example.com", "Thing")).toBe(b);
    expect(registry.lookup("c.example.com", "Thing")).toBeUndefined();
  });
});

describe("converters are typed by their versions' schemas", () => {
  it("rejects, at compile time, a converter returning the wrong shape", () => {
    defineKind({
      ...base,
      versions: { v1: z.looseObject({ a: z.string() }), v2: z.looseObject({ b: z.number() }) },
      converters: {
        // @ts-expect-error b must be a number in v2
        v1: { v2: ({ a, ...rest }) => ({ ...rest, b: a }) },
        v2: { v1: ({ b, ...rest }) => ({ ...rest, a: String(b) }) },
      },
    });
  });
});
