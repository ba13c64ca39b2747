import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { declaredLosses, defineKind, DefinitionError, mapping, STASH_ANNOTATION } from "../../src/conversion";
import { checkKinds } from "../../src/check/round-trip";

// Go's deprecated aliases: Kueue's `Preempt` and `MayStopSearch` both become `MayStopSearch`.
// mapping() takes them as table entries that say what the way back does.

const fungibility = z.looseObject({
  spec: z.optional(
    z.looseObject({
      whenCanPreempt: z.optional(z.string()),
      flavors: z.optional(z.array(z.looseObject({ policy: z.optional(z.string()) }))),
    }),
  ),
});
const older = { "spec.whenCanPreempt": ["Preempt", "MayStopSearch", "TryNextFlavor"] } as const;
const newer = { "spec.whenCanPreempt": ["MayStopSearch", "TryNextFlavor"] } as const;
const versions = (back: "stash" | "lose") =>
  mapping(
    { schema: fungibility, enums: older },
    { schema: fungibility, enums: newer },
    {
      enums: {
        "spec.whenCanPreempt": {
          MayStopSearch: "MayStopSearch",
          TryNextFlavor: "TryNextFlavor",
          Preempt: { alias: "MayStopSearch", back },
        },
      },
    },
  );
const at = (whenCanPreempt: string) => ({ spec: { whenCanPreempt } });

describe("an enum alias, many values to one", () => {
  it("becomes the value it stands for, and with back: stash comes back as itself", () => {
    const { up, down } = versions("stash");
    expect(up(at("Preempt"))).toEqual({
      metadata: { annotations: { [STASH_ANNOTATION]: '{"spec.whenCanPreempt#alias":"Preempt"}' } },
      ...at("MayStopSearch"),
    });
    expect(down(up(at("Preempt")))).toEqual({ metadata: { annotations: {} }, ...at("Preempt") });
    // The value it stands for needs no stash, either way.
    expect(up(at("MayStopSearch"))).toEqual(at("MayStopSearch"));
    expect(down(at("MayStopSearch"))).toEqual(at("MayStopSearch"));
  });

  it("comes back only while the field still means it: a value changed since wins", () => {
    const { up, down } = versions("stash");
    const changed = { ...up(at("Preempt")), spec: { whenCanPreempt: "TryNextFlavor" } };
    expect(down(changed)).toEqual({ metadata: { annotations: {} }, ...at("TryNextFlavor") });
  });

  it("round-trips every value exactly with back: stash", () => {
    const { up, down } = versions("stash");
    fc.assert(
      fc.property(fc.constantFrom("Preempt", "MayStopSearch", "TryNextFlavor", "", "Other"), (value) => {
        const back = down(up(at(value)));
        expect(back.spec).toEqual(at(value).spec);
      }),
    );
  });

  it("with back: lose comes back as the value it stands for, and says so on its converter", () => {
    const { up, down } = versions("lose");
    expect(up(at("Preempt"))).toEqual(at("MayStopSearch"));
    expect(down(up(at("Preempt")))).toEqual(at("MayStopSearch"));
    expect(declaredLosses(up)).toEqual([{ path: "spec.whenCanPreempt", from: "Preempt", to: "MayStopSearch" }]);
    expect(declaredLosses(down)).toEqual([]);
    expect(declaredLosses(versions("stash").up)).toEqual([]);
  });
});

describe("enum fallbacks are for values neither version declares", () => {
  const withFallback = mapping(
    { schema: fungibility, enums: older },
    { schema: fungibility, enums: { "spec.whenCanPreempt": ["MayStopSearch", "TryNextFlavor", "Borrow"] } },
    {
      enums: {
        "spec.whenCanPreempt": {
          MayStopSearch: "MayStopSearch",
          TryNextFlavor: "TryNextFlavor",
          Preempt: { alias: "MayStopSearch", back: "lose" },
          Borrow: "Borrow",
        } as never,
      },
      enumFallbacks: { "spec.whenCanPreempt": { up: "TryNextFlavor", down: "TryNextFlavor" } },
    },
  );

  it('never rewrites "" (Go\'s unset) nor a declared value; rewrites any other', () => {
    expect(withFallback.up(at("")).spec).toEqual({ whenCanPreempt: "" });
    expect(withFallback.down(at("")).spec).toEqual({ whenCanPreempt: "" });
    expect(withFallback.up(at("Preempt")).spec).toEqual({ whenCanPreempt: "MayStopSearch" });
    expect(withFallback.up(at("Sometimes")).spec).toEqual({ whenCanPreempt: "TryNextFlavor" });
    expect(withFallback.down(at("Sometimes")).spec).toEqual({ whenCanPreempt: "TryNextFlavor" });
  });
});

describe("aliases checked when the module loads", () => {
  const refuse = (rules: unknown, message: RegExp) => {
    const build = () =>
      mapping({ schema: fungibility, enums: older }, { schema: fungibility, enums: newer }, rules as never);
    expect(build).toThrow(DefinitionError);
    expect(build).toThrow(message);
  };

  it("two plain entries to one value: the message says how to declare an alias", () =>
    refuse(
      {
        enums: {
          "spec.whenCanPreempt": {
            Preempt: "MayStopSearch",
            MayStopSearch: "MayStopSearch",
            TryNextFlavor: "TryNextFlavor",
          },
        },
      },
      /maps both "Preempt" and "MayStopSearch" to "MayStopSearch".*declare one of them an alias: \{ alias: "MayStopSearch", back: "stash" \}/,
    ));

  it("an alias of a value no plain entry becomes, an alias without a way back, and a stashed alias inside items", () => {
    refuse(
      {
        enums: {
          "spec.whenCanPreempt": {
            Preempt: { alias: "MayStopSearch", back: "stash" },
            MayStopSearch: { alias: "MayStopSearch", back: "lose" },
            TryNextFlavor: "TryNextFlavor",
          },
        },
      },
      /is an alias of "MayStopSearch", which no other value of the table becomes/,
    );
    refuse(
      {
        enums: {
          "spec.whenCanPreempt": {
            Preempt: { alias: "MayStopSearch" },
            MayStopSearch: "MayStopSearch",
            TryNextFlavor: "TryNextFlavor",
          },
        },
      },
      /an alias is \{ alias: "value", back: "stash" \} or back: "lose"/,
    );
    const items = () =>
      mapping(fungibility, fungibility, {
        enums: { "spec.flavors[].policy": { A: "A", B: { alias: "A", back: "stash" } } },
      });
    expect(items).toThrow(/inside an array's items cannot be stashed; give it back: "lose"/);
  });

  it("a declared value left to a fallback", () =>
    refuse(
      {
        enums: { "spec.whenCanPreempt": { MayStopSearch: "MayStopSearch", TryNextFlavor: "TryNextFlavor" } },
        enumFallbacks: { "spec.whenCanPreempt": { up: "MayStopSearch" } },
      },
      /no entry for "Preempt", a value of the first version \(a fallback is for values neither version declares\)/,
    ));

  it("is typed: an alias entry stands for the value, and leaving the value out is still a type error", () => {
    const build = () =>
      mapping(
        { schema: fungibility, enums: older },
        { schema: fungibility, enums: newer },
        {
          // @ts-expect-error -- Preempt, a value of the first version, has no entry
          enums: { "spec.whenCanPreempt": { MayStopSearch: "MayStopSearch", TryNextFlavor: "TryNextFlavor" } },
        },
      );
    expect(build).toThrow(/no entry for "Preempt"/);
  });
});

describe("the round-trip check and a declared loss", () => {
  // Schemas that generate the enums' values, so that the check draws Preempt.
  const v1beta1 = z.looseObject({
    spec: z.optional(
      z.looseObject({ whenCanPreempt: z.optional(z.enum(["Preempt", "MayStopSearch", "TryNextFlavor"])) }),
    ),
  });
  const v1beta2 = z.looseObject({
    spec: z.optional(z.looseObject({ whenCanPreempt: z.optional(z.enum(["MayStopSearch", "TryNextFlavor"])) })),
  });
  const { up, down } = mapping(
    { schema: v1beta1, enums: older },
    { schema: v1beta2, enums: newer },
    {
      enums: {
        "spec.whenCanPreempt": {
          MayStopSearch: "MayStopSearch",
          TryNextFlavor: "TryNextFlavor",
          Preempt: { alias: "MayStopSearch", back: "lose" },
        },
      },
    },
  );
  const kind = (toV1beta2: typeof up) =>
    defineKind({
      group: "kueue.example.com",
      kind: "Queue",
      versions: { v1beta1, v1beta2 },
      converters: { v1beta1: { v1beta2: toV1beta2 }, v1beta2: { v1beta1: down } },
    });

  it("accepts the alias come back as the value it stands for, and reports it", async () => {
    const [report] = await checkKinds([kind(up)], { seed: 3 });
    expect(report!.failure).toBeUndefined();
    const pair = report!.pairs.find((one) => one.from === "v1beta1")!;
    expect(pair.enumLosses).toEqual([
      { path: "spec.whenCanPreempt", from: "Preempt", to: "MayStopSearch", count: expect.any(Number) },
    ]);
  });

  it("fails any other change: a converter that loses more, or the same mapping wrapped so its declaration is gone", async () => {
    const lossier: typeof up = (object) => {
      const out = up(object);
      return out.spec?.whenCanPreempt === "TryNextFlavor"
        ? { ...out, spec: { ...out.spec, whenCanPreempt: "MayStopSearch" } }
        : out;
    };
    const [worse] = await checkKinds([kind(lossier)], { seed: 3 });
    expect(worse!.failure).toMatch(/spec\.whenCanPreempt was "TryNextFlavor", came back "MayStopSearch"/);
    const [wrapped] = await checkKinds([kind((object) => up(object))], { seed: 3 });
    expect(wrapped!.failure).toMatch(/spec\.whenCanPreempt was "Preempt", came back "MayStopSearch"/);
  });
});
