import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { DefinitionError, mapping, STASH_ANNOTATION } from "../../src/conversion";

const port = z.looseObject({ name: z.optional(z.string()), proto: z.optional(z.string()) });
const portB = z.looseObject({ name: z.optional(z.string()), protocol: z.optional(z.string()) });
const a = z.looseObject({
  spec: z.optional(
    z.looseObject({
      maxUnhealthy: z.optional(z.string()),
      mode: z.optional(z.string()),
      ports: z.optional(z.array(port)),
      legacy: z.optional(z.boolean()),
      keep: z.optional(z.string()),
    }),
  ),
});
const b = z.looseObject({
  spec: z.optional(
    z.looseObject({
      remediation: z.optional(z.looseObject({ maxUnhealthy: z.optional(z.string()) })),
      mode: z.optional(z.string()),
      endpoints: z.optional(z.array(portB)),
      strategy: z.optional(z.string()),
      keep: z.optional(z.string()),
    }),
  ),
});
const enumsA = { "spec.mode": ["Small", "Large"] } as const;
const enumsB = { "spec.mode": ["small", "large"] } as const;

const beta = mapping(
  { schema: a, enums: enumsA },
  { schema: b, enums: enumsB },
  {
    rename: {
      "spec.maxUnhealthy": "spec.remediation.maxUnhealthy",
      "spec.ports": "spec.endpoints",
      "spec.ports[].proto": "spec.endpoints[].protocol",
    },
    enums: { "spec.mode": { Small: "small", Large: "large" } },
    defaults: {
      up: { "spec.strategy": { value: "Rolling" } },
      down: { "spec.legacy": { value: false, back: "drop" } },
    },
  },
);

/** Frozen all the way down: a converter that writes into its input throws. */
function frozen<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) frozen(child);
    Object.freeze(value);
  }
  return value;
}

describe("mapping: one declaration, both directions", () => {
  const v1 = {
    metadata: { name: "m" },
    spec: { maxUnhealthy: "40%", mode: "Large", ports: [{ name: "h", proto: "TCP" }, { name: "x" }], keep: "k" },
  };
  const v2 = {
    metadata: { name: "m" },
    spec: {
      mode: "large",
      keep: "k",
      remediation: { maxUnhealthy: "40%" },
      endpoints: [{ name: "h", protocol: "TCP" }, { name: "x" }],
      strategy: "Rolling",
    },
  };

  it("renames, moves, translates enums and sets defaults on the way up, without touching its input", () => {
    expect(beta.up(frozen(structuredClone(v1)))).toEqual(v2);
  });

  it("undoes all of it on the way down", () => {
    expect(beta.down(frozen(structuredClone(v2)))).toEqual({ ...v1, spec: { ...v1.spec, legacy: false } });
    // back: "drop" for spec.legacy: on the way up it leaves, whatever its value.
    expect(beta.up(beta.down(v2))).toEqual(v2);
  });

  it("leaves absent fields absent, and the objects around them", () => {
    expect(beta.up({ spec: { keep: "k" } })).toEqual({ spec: { keep: "k", strategy: "Rolling" } });
    // spec.strategy's absence waits in the stash, so that the way up does not give it the default.
    expect(beta.down({ spec: { remediation: {} } })).toEqual({
      metadata: { annotations: { [STASH_ANNOTATION]: '{"spec.strategy":{}}' } },
      spec: { remediation: {}, legacy: false },
    });
    expect(beta.up({ metadata: { name: "x" } })).toEqual({ metadata: { name: "x" } });
    // No spec, no default to guard against: nothing stashed.
    expect(beta.down({ metadata: { name: "x" } })).toEqual({ metadata: { name: "x" } });
  });

  it("passes an enum value the table does not name unchanged (an object stored before the CRD tightened)", () => {
    expect(beta.up({ spec: { mode: "Medium" } }).spec?.mode).toBe("Medium");
    expect(beta.down({ spec: { mode: "medium" } }).spec?.mode).toBe("medium");
  });

  it("translates an enum in every item of an array, and in an array of strings", () => {
    const items = z.looseObject({
      spec: z.optional(z.looseObject({ ports: z.optional(z.array(port)), modes: z.optional(z.array(z.string())) })),
    });
    const lower = mapping(items, items, {
      enums: { "spec.ports[].proto": { TCP: "tcp", UDP: "udp" }, "spec.modes[]": { Small: "small" } },
    });
    const object = frozen({ spec: { ports: [{ proto: "TCP" }, {}, { proto: "SCTP" }], modes: ["Small", "Large"] } });
    const up = lower.up(object);
    expect(up).toEqual({ spec: { ports: [{ proto: "tcp" }, {}, { proto: "SCTP" }], modes: ["small", "Large"] } });
    expect(lower.down(up)).toEqual(object);
  });

  it("uses a declared fallback for such a value instead", () => {
    const loose = mapping(a, b, {
      enums: { "spec.mode": { Small: "small" } },
      enumFallbacks: { "spec.mode": { up: "small" } },
    });
    expect(loose.up({ spec: { mode: "Huge" } }).spec?.mode).toBe("small");
    expect(loose.down({ spec: { mode: "huge" } }).spec?.mode).toBe("huge");
  });

  it("keeps a default-only field's value and its absence through the stash, so both round trips are exact", () => {
    const strategy = fc.option(fc.constantFrom("Rolling", "OnDelete", "Recreate"), { nil: undefined });
    fc.assert(
      // No mode at times: the default-only field is then all its object holds.
      fc.property(strategy, fc.option(fc.constantFrom("small", "large", "tiny"), { nil: undefined }), (value, mode) => {
        const object = {
          spec: { ...(mode === undefined ? {} : { mode }), ...(value === undefined ? {} : { strategy: value }) },
        };
        const down = beta.down(object);
        expect(down.spec).not.toHaveProperty("strategy");
        const annotations = (down as { metadata?: { annotations?: Record<string, string> } }).metadata?.annotations;
        // The default itself needs no stash: it comes back as the default.
        expect(annotations?.[STASH_ANNOTATION] === undefined).toBe(value === "Rolling");
        const back = beta.up(down);
        expect(back.spec).toEqual(object.spec);
      }),
    );
  });

  it("keeps the object around a default-only field when that field was all it held, both ways", () => {
    // The apiserver stores a CRD's defaults: { spec: { strategy: "Rolling" } } is a common object.
    // Down, spec.strategy leaves and spec.legacy (only the first version has it) arrives.
    expect(beta.down({ spec: { strategy: "Rolling" } })).toEqual({ spec: { legacy: false } });
    expect(beta.up(beta.down({ spec: { strategy: "Rolling" } }))).toEqual({ spec: { strategy: "Rolling" } });
    expect(beta.up({ spec: { legacy: false } })).toEqual({ spec: { strategy: "Rolling" } });
    expect(beta.down(beta.up({ spec: { legacy: false } }))).toEqual({ spec: { legacy: false } });
    expect(beta.up({})).toEqual({});
  });

  it("leaves the author's own stashed fields in the annotation", () => {
    const object = {
      metadata: { annotations: { [STASH_ANNOTATION]: '{"status":{"phase":"Up"},"spec.strategy":{}}' } },
      spec: {},
    };
    expect(beta.up(object)).toEqual({
      metadata: { annotations: { [STASH_ANNOTATION]: '{"status":{"phase":"Up"}}' } },
      spec: {},
    });
  });
});

describe("mapping: declarations refused when the module loads", () => {
  const refuse = (build: () => unknown, message: RegExp) => {
    expect(build).toThrow(DefinitionError);
    expect(build).toThrow(message);
  };

  it("an enum table that is not one to one", () =>
    refuse(
      () => mapping(a, b, { enums: { "spec.mode": { Small: "small", Tiny: "small" } } }),
      /spec\.mode: the enum table maps both "Small" and "Tiny" to "small".*one to one/,
    ));

  it("a field the schema does not declare (a typo, or the other version's name): tsc says so, and so does the load", () => {
    refuse(
      // @ts-expect-error -- a path of neither schema
      () => mapping(a, b, { rename: { "spec.maxUnhealty": "spec.remediation.maxUnhealthy" } }),
      /spec\.maxUnhealty is not a field of the first version/,
    );
    refuse(
      // @ts-expect-error -- not a path of the second schema
      () => mapping(a, b, { rename: { "spec.maxUnhealthy": "spec.remediation.max" } }),
      /spec\.remediation\.max is not a field of the second/,
    );
  });

  it("enum values that differ with no table, and a table leaving out a value either version declares", () => {
    refuse(
      () => mapping({ schema: a, enums: enumsA }, { schema: b, enums: enumsB }, {}),
      /spec\.mode: its enum values differ between the versions \(only the first has "Small", "Large"/,
    );
    refuse(
      () =>
        mapping(
          { schema: a, enums: enumsA },
          { schema: b, enums: enumsB },
          // @ts-expect-error -- the table must name every value of the first version's enum
          { enums: { "spec.mode": { Small: "small" } } },
        ),
      /no entry for "Large"/,
    );
    refuse(
      () =>
        mapping(
          { schema: a, enums: enumsA },
          { schema: b, enums: { "spec.mode": ["small", "large", "huge"] } },
          { enums: { "spec.mode": { Small: "small", Large: "large" } } },
        ),
      /nothing in the enum table becomes "huge"/,
    );
  });

  it("an item's field moved out of its array, and a default for a field both versions have", () => {
    refuse(
      () => mapping(a, b, { rename: { "spec.ports[].proto": "spec.endpoints[].protocol" } }),
      /stays in its items; rename the array itself/,
    );
    refuse(() => mapping(a, b, { defaults: { up: { "spec.keep": { value: "k" } } } }), /both versions have it/);
  });
});
