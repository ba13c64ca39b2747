import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { checkGoldenFolder, recordGolden } from "../../src/cli/golden-command";
import { createRegistry, defineKind, stashFields, unstashFields } from "../../src/conversion";
import { checkGolden, readGoldenCases } from "../../src/check/golden";
import { scratchDir } from "../codegen/generated";

// One-way golden cases (`<version>.input.yaml` -> `<version>.expected.yaml`), as Go's table
// tests are written, and the kind's emptyIsAbsent in every golden comparison.

const v1 = z.looseObject({
  spec: z.optional(z.looseObject({ size: z.optional(z.string()), selector: z.optional(z.looseObject({})) })),
});
const v2 = z.looseObject({
  spec: z.optional(
    z.looseObject({
      replicas: z.optional(z.string()),
      paused: z.optional(z.boolean()),
      selector: z.optional(z.looseObject({})),
    }),
  ),
});
type V1 = z.infer<typeof v1>;
type V2 = z.infer<typeof v2>;

// v1 has no `paused`: the way down keeps it in the stash, the way up puts it back.
const up = (object: V1): V2 => {
  const { object: rest, fields } = unstashFields(object);
  const { size, ...spec } = rest.spec ?? {};
  return {
    ...rest,
    spec: { ...spec, replicas: size, ...(fields.paused !== undefined ? { paused: fields.paused as boolean } : {}) },
  };
};
const down = ({ spec, ...rest }: V2): V1 => {
  const { replicas, paused, ...others } = spec ?? {};
  return stashFields({ ...rest, spec: { ...others, size: replicas } }, { paused });
};

function boxes(converters: { up?: typeof up; down?: typeof down } = {}, emptyIsAbsent?: string[]) {
  return createRegistry([
    defineKind({
      group: "example.com",
      kind: "Box",
      versions: { v1, v2 },
      converters: { v1: { v2: converters.up ?? up }, v2: { v1: converters.down ?? down } },
      ...(emptyIsAbsent ? { emptyIsAbsent } : {}),
    }),
  ]);
}

const box = (version: string, spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) =>
  `${JSON.stringify({ apiVersion: `example.com/${version}`, kind: "Box", metadata: { name: "b", ...metadata }, spec })}\n`;

const scratch = scratchDir("golden-one-way");
afterAll(() => scratch.remove());

function golden(name: string, cases: Record<string, Record<string, string>>): string {
  const dir = join(scratch.dir, name);
  for (const [folder, files] of Object.entries(cases)) {
    mkdirSync(join(dir, folder), { recursive: true });
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, folder, file), text);
  }
  return dir;
}

describe("a one-way golden case", () => {
  it("converts its input to each expected file's version, and nothing back", async () => {
    const dir = golden("one-way", {
      up: { "v1.input.json": box("v1", { size: "3" }), "v2.expected.json": box("v2", { replicas: "3" }) },
    });
    // The way down is broken, and no file of this case asks for it.
    const brokenDown = () => {
      throw new Error("never asked");
    };
    expect(await checkGolden(boxes({ down: brokenDown }), dir)).toMatchObject({ cases: 1, pairs: 1, mismatches: [] });
    const wrongUp = (object: V1): V2 => ({ ...up(object), spec: { replicas: "4" } });
    expect((await checkGolden(boxes({ up: wrongUp }), dir)).mismatches).toEqual([
      { case: "up", from: "v1", to: "v2", message: 'spec.replicas: expected "3", received "4"' },
    ]);
  });

  it("leaves the stash out against an expected file that holds none, and compares it where one does", async () => {
    const input = box("v2", { replicas: "3", paused: true });
    const dir = golden("stash", {
      down: { "v2.input.json": input, "v1.expected.json": box("v1", { size: "3" }) },
      both: { "v2.json": input, "v1.json": box("v1", { size: "3" }) },
    });
    const report = await checkGolden(boxes(), dir);
    // Both ways, the stash is part of the object: v1.json lacks it, so that case fails (and v1 ->
    // v2 loses `paused` too); the one-way case passes.
    expect(report.mismatches.filter(({ to }) => to === "v1").map(({ case: name, message }) => [name, message])).toEqual(
      [["both", 'metadata.annotations: expected missing, received {"crdshift.io/stash":"{\\"paused\\":true}"}']],
    );
    // A converter that writes the field into v1 instead fails the one-way case.
    const leaky = ({ spec, ...rest }: V2): V1 => ({
      ...rest,
      spec: { size: spec?.replicas, paused: spec?.paused } as V1["spec"],
    });
    expect(
      (await checkGolden(boxes({ down: leaky }), dir)).mismatches.find((one) => one.case === "down"),
    ).toMatchObject({
      message: "spec.paused: expected missing, received true",
    });
    // An expected file that holds a stash has it compared.
    const stashed = golden("stash-compared", {
      down: {
        "v2.input.json": input,
        "v1.expected.json": box("v1", { size: "3" }, { annotations: { "crdshift.io/stash": '{"paused":false}' } }),
      },
    });
    expect((await checkGolden(boxes(), stashed)).mismatches[0]?.message).toMatch(
      /^metadata\.annotations\["crdshift\.io\/stash"\]: expected "\{\\"paused\\":false\}"/,
    );
  });

  it("is refused where a version is there both ways and one way", () => {
    const dir = golden("ambiguous", { mixed: { "v1.json": box("v1", {}), "v1.input.json": box("v1", {}) } });
    expect(() => readGoldenCases(dir)).toThrow(/golden mixed: v1 is there both ways and one way/);
  });
});

describe("emptyIsAbsent in golden comparisons", () => {
  // Go's omitempty writes `selector: {}` as nothing; this converter, a faithful port, drops it.
  const dropsEmpty = (object: V1): V2 => {
    const converted = up(object);
    const { selector, ...spec } = converted.spec ?? {};
    return { ...converted, spec: selector && Object.keys(selector).length > 0 ? { ...spec, selector } : spec };
  };
  const dir = () =>
    golden("empty", {
      empty: {
        "v1.input.json": box("v1", { size: "1", selector: {} }),
        "v2.expected.json": box("v2", { replicas: "1", selector: {} }),
      },
    });

  it("accepts an empty value for an absent one where the kind declares it, and counts it", async () => {
    const report = await checkGolden(boxes({ up: dropsEmpty }, ["spec.selector"]), dir());
    expect(report.mismatches).toEqual([]);
    expect(report.emptyIsAbsent).toEqual([{ path: "spec.selector", count: 1 }]);
  });

  it("crdshift check says what it accepted", async () => {
    const cwd = join(scratch.dir, "empty-check");
    mkdirSync(cwd);
    cpSync(dir(), join(cwd, "golden"), { recursive: true });
    const out: string[] = [];
    const io = { out: (text: string) => out.push(text), err: (text: string) => out.push(text) };
    expect(await checkGoldenFolder(boxes({ up: dropsEmpty }, ["spec.selector"]), cwd, io)).toBe(true);
    expect(out.join("")).toBe(
      "ok: 1 golden case(s), 1 conversion(s) as recorded in golden/\n" +
        "  accepted 1 time(s) under emptyIsAbsent: spec.selector empty on one side, absent on the other\n",
    );
  });

  it("fails it where the kind does not, and fails a value lost under a declared path", async () => {
    expect((await checkGolden(boxes({ up: dropsEmpty }), dir())).mismatches[0]?.message).toBe(
      "spec.selector: expected {}, received missing",
    );
    const full = golden("full", {
      full: {
        "v1.input.json": box("v1", { size: "1", selector: { app: "a" } }),
        "v2.expected.json": box("v2", { replicas: "1", selector: { app: "a" } }),
      },
    });
    const dropsAll = (object: V1): V2 => {
      const { selector, ...spec } = up(object).spec ?? {};
      return { ...up(object), spec };
    };
    expect((await checkGolden(boxes({ up: dropsAll }, ["spec.selector"]), full)).mismatches[0]?.message).toBe(
      'spec.selector: expected {"app":"a"}, received missing',
    );
  });
});

describe("golden record takes each case's source from the case", () => {
  it("records each case from its own input file, as expected files, in one run; --from picks among the others", async () => {
    const dir = golden("record", {
      "from-v1": { "v1.input.json": box("v1", { size: "3" }) },
      "from-v2": { "v2.input.json": box("v2", { replicas: "4" }) },
      both: { "v1.json": box("v1", { size: "5" }), "v2.json": box("v2", { replicas: "5" }) },
    });
    const lines: string[] = [];
    const io = { out: (text: string) => lines.push(text), err: (text: string) => lines.push(text) };
    expect(await recordGolden(boxes(), { cwd: dir, dir: ".", from: "v1" }, io)).toBe(true);
    expect(lines.join("")).toBe(
      "both/v2.json: unchanged\nfrom-v1/v2.expected.yaml: written\nfrom-v2/v1.expected.yaml: written\n",
    );
    expect(readFileSync(join(dir, "from-v1/v2.expected.yaml"), "utf8")).toContain('replicas: "3"');
    expect(existsSync(join(dir, "from-v1/v2.yaml"))).toBe(false);
    expect((await checkGolden(boxes(), dir)).mismatches).toEqual([]);
    // Recorded again: unchanged, compared as one-way cases are.
    lines.length = 0;
    expect(await recordGolden(boxes(), { cwd: dir, dir: ".", from: "v1" }, io)).toBe(true);
    expect(lines.join("")).toContain("from-v2/v1.expected.yaml: unchanged\n");
  });
});
