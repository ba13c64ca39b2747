import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { checkGoldenFolder, recordGolden } from "../../src/cli/golden-command";
import { createRegistry, defineKind, mapping } from "../../src/conversion";
import { assertGolden, checkGolden } from "../../src/check/golden";
import { scratchDir } from "../codegen/generated";

const v1 = z.looseObject({ spec: z.optional(z.looseObject({ size: z.optional(z.string()) })) });
const v2 = z.looseObject({ spec: z.optional(z.looseObject({ replicas: z.optional(z.string()) })) });
const rename = mapping(v1, v2, { rename: { "spec.size": "spec.replicas" } });
const kind = (up = rename.up) =>
  createRegistry([
    defineKind({
      group: "example.com",
      kind: "Box",
      versions: { v1, v2 },
      converters: { v1: { v2: up }, v2: { v1: rename.down } },
    }),
  ]);
const object = (version: string, spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) =>
  `${JSON.stringify({ apiVersion: `example.com/${version}`, kind: "Box", metadata: { name: "b", ...metadata }, spec })}\n`;

const scratch = scratchDir("golden");
afterAll(() => scratch.remove());

function folder(name: string, files: Record<string, string>): string {
  const dir = join(scratch.dir, name);
  mkdirSync(join(dir, "boxes/small"), { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, "boxes/small", file), text);
  return dir;
}

describe("golden conversions", () => {
  it("pass when every file converts to every other one, metadata the apiserver restores aside", async () => {
    const dir = folder("pass", {
      "v1.json": object("v1", { size: "3" }, { uid: "1" }),
      "v2.json": object("v2", { replicas: "3" }, { annotations: {} }),
    });
    await expect(assertGolden(kind(), dir)).resolves.toBeUndefined();
    expect(await checkGolden(kind(), dir)).toMatchObject({ cases: 1, pairs: 2, mismatches: [] });
  });

  it("fail naming the case, the pair and the field, with expected and received", async () => {
    const dir = folder("fail", { "v1.json": object("v1", { size: "3" }), "v2.json": object("v2", { replicas: "3" }) });
    const lossy = kind(({ spec, ...rest }) => ({ ...rest, spec: { replicas: spec?.size === "3" ? "4" : undefined } }));
    await expect(assertGolden(lossy, dir)).rejects.toThrow(
      'golden boxes/small: v1 -> v2: spec.replicas: expected "3", received "4"',
    );
  });

  it("say a converter's refusal is one, and a result its schema refuses a failure, by code whatever the words", async () => {
    const dir = folder("refused", {
      "v1.json": object("v1", { size: "3" }),
      "v2.json": object("v2", { replicas: "3" }),
    });
    // The refusal's words are the engine's for a result that breaks its schema: the code decides.
    const refusing = kind(() => {
      throw new Error("the converter's result does not match the v2 schema");
    });
    const breaking = kind(({ spec, ...rest }) => ({ ...rest, spec: { replicas: 3 as unknown as string } }));
    const [refused] = (await checkGolden(refusing, dir)).mismatches;
    const [failed] = (await checkGolden(breaking, dir)).mismatches;
    expect(refused!.message).toMatch(
      /^refused: object 0 \(b\) Box example\.com\/v1 -> example\.com\/v2: the converter's result does not match the v2 schema$/,
    );
    expect(failed!.message).toMatch(
      /^failed: object 0 \(b\) Box example\.com\/v1 -> example\.com\/v2: the converter's result does not match the v2 schema: /,
    );
  });

  it("crdshift check runs them when golden/ exists: a line of success, or each mismatch on stderr", async () => {
    const cwd = join(scratch.dir, "check");
    mkdirSync(join(cwd, "golden/small"), { recursive: true });
    writeFileSync(join(cwd, "golden/small/v1.json"), object("v1", { size: "3" }));
    writeFileSync(join(cwd, "golden/small/v2.json"), object("v2", { replicas: "3" }));
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (text: string) => out.push(text), err: (text: string) => err.push(text) };
    expect(await checkGoldenFolder(kind(), cwd, io)).toBe(true);
    expect(out.join("")).toBe("ok: 1 golden case(s), 2 conversion(s) as recorded in golden/\n");
    writeFileSync(join(cwd, "golden/small/v2.json"), object("v2", { replicas: "4" }));
    expect(await checkGoldenFolder(kind(), cwd, io)).toBe(false);
    expect(err.join("")).toContain('golden small: v1 -> v2: spec.replicas: expected "4", received "3"');
    expect(err.join("")).toContain('golden small: v2 -> v1: spec.size: expected "3", received "4"');
    // No folder, nothing to say.
    expect(await checkGoldenFolder(kind(), scratch.dir, { out: () => expect.fail(), err: () => expect.fail() })).toBe(
      true,
    );
  });

  it("crdshift check says when a case holds one version only: it compares nothing", async () => {
    const cwd = join(scratch.dir, "single");
    mkdirSync(join(cwd, "golden/lonely"), { recursive: true });
    writeFileSync(join(cwd, "golden/lonely/v1.json"), object("v1", { size: "3" }));
    const out: string[] = [];
    expect(await checkGoldenFolder(kind(), cwd, { out: (text) => out.push(text), err: () => expect.fail() })).toBe(
      true,
    );
    expect(out.join("")).toBe(
      "ok: 1 golden case(s), 0 conversion(s) as recorded in golden/\n" +
        "  1 of them hold one version only, nothing compared (lonely): `crdshift golden record` writes the others for review\n",
    );
  });

  it("record writes the missing versions, and replaces a file that differs only with --force, saying what changed", async () => {
    const dir = folder("record", { "v1.json": object("v1", { size: "3" }) });
    const lines: string[] = [];
    const io = { out: (text: string) => lines.push(text), err: (text: string) => lines.push(text) };
    expect(await recordGolden(kind(), { cwd: dir, dir: "." }, io)).toBe(true);
    expect(lines.join("")).toBe("boxes/small/v2.yaml: written\n");
    expect(readFileSync(join(dir, "boxes/small/v2.yaml"), "utf8")).toContain('replicas: "3"');
    writeFileSync(join(dir, "boxes/small/v2.yaml"), object("v2", { replicas: "5" }));
    lines.length = 0;
    expect(await recordGolden(kind(), { cwd: dir, dir: ".", from: "v1" }, io)).toBe(false);
    expect(lines.join("")).toBe(
      'boxes/small/v2.yaml: differs, not written (add --force to replace it): spec.replicas: expected "5", received "3"\n',
    );
    lines.length = 0;
    expect(await recordGolden(kind(), { cwd: dir, dir: ".", from: "v1", force: true }, io)).toBe(true);
    expect(lines.join("")).toContain("boxes/small/v2.yaml: replaced:");
    await expect(assertGolden(kind(), dir)).resolves.toBeUndefined();
  });
});
