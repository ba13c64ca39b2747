import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { ALIAS_EXPANSION_LIMIT, aliasProblem } from "../../../src/kube/crd/alias-expansion";
import { ManifestError, parseManifests } from "../../../src/kube/crd";
import { YAML_TEXT_LIMIT } from "../../../src/kube/crd/manifests";

/** `levels` lists of nine aliases of the level below: 9^levels copies of the first list's items. */
function billionLaughs(levels: number): string {
  const lines = ["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
  for (let i = 1; i <= levels; i++)
    lines.push(
      `l${i}: &l${i} [${Array(9)
        .fill(`*l${i - 1}`)
        .join(", ")}]`,
    );
  return `${lines.join("\n")}\n`;
}

const bigString = "x".repeat(1 << 20);
/** A 1 MiB string and 1,000 aliases of it: under any alias count, a gigabyte once printed. */
const aliasedString = `s: &s ${bigString}\nmany: [${Array(1000).fill("*s").join(", ")}]\n`;

function readError(text: string): string {
  try {
    parseManifests(text, "objects.yaml");
  } catch (error) {
    expect(error).toBeInstanceOf(ManifestError);
    return (error as Error).message;
  }
  throw new Error("read without an error");
}

describe("YAML with aliases", () => {
  it("keeps the aliases a real manifest has: a shared block repeated", () => {
    const text = "defaults: &d {cpu: 1, memory: 2Gi}\na: *d\nb: *d\n";
    expect(parseManifests(text, "x.yaml")).toEqual([
      { defaults: { cpu: 1, memory: "2Gi" }, a: { cpu: 1, memory: "2Gi" }, b: { cpu: 1, memory: "2Gi" } },
    ]);
  });

  it("refuses a billion laughs, in one line naming the file and document", () => {
    const message = readError(`kind: Ok\n---\n${billionLaughs(9)}`);
    expect(message).toMatch(/^objects\.yaml: document 2: its aliases expand to more than \d+ characters/);
    expect(message).not.toContain("\n");
  });

  it("refuses an aliased 1 MiB string repeated 1,000 times, which an alias count lets through", () => {
    expect(readError(aliasedString)).toMatch(/^objects\.yaml: document 1: its aliases expand to more than/);
    // Just under the limit is read, the same string shared.
    const copies = Math.floor(ALIAS_EXPANSION_LIMIT / (bigString.length + 8));
    const fits = `s: &s ${bigString}\nmany: [${Array(copies).fill("*s").join(", ")}]\n`;
    expect((parseManifests(fits, "x.yaml")[0] as { many: string[] }).many).toHaveLength(copies);
  });

  it("refuses an alias inside the node it names, which no JSON can hold", () => {
    expect(readError("a: &a [1, *a]\n")).toBe("objects.yaml: document 1: the alias *a is inside the node it names");
    expect(readError("a: &a {b: {c: *a}}\n")).toMatch(/the alias \*a is inside the node it names$/);
  });

  it("resolves each alias to the last anchor of its name before it", () => {
    const document = parseDocument(
      `a: &x ${"y".repeat(100)}\nb: *x\nc: &x small\nd: [${Array(50).fill("*x").join(",")}]\n`,
    );
    // 100 characters once, then 50 aliases of the 5-character redefinition.
    expect(aliasProblem(document, 108 + 50 * 13)).toBeUndefined();
    expect(aliasProblem(document, 108 + 50 * 13 - 1)).toMatch(/expand to more than/);
  });

  it("reports a tree too deep to parse in one line", () => {
    const depth = 100_000;
    const message = readError(`a: ${"[".repeat(depth)}${"]".repeat(depth)}\n`);
    expect(message).toMatch(
      /^objects\.yaml: document 1 is not valid YAML: nested too deeply \(at line 1, column \d+\)$/,
    );
  });

  it("keeps a parse error to its first line, without the quoted text", () => {
    const message = readError("a: [1, 2\nb: \u001b[2J\n");
    expect(message).toMatch(/^objects\.yaml: document 1 is not valid YAML: /);
    expect(message).not.toContain("\n");
  });

  it("reads YAML up to its limit, and says to give a larger text as JSON", () => {
    const text = `a: 1\n#${"x".repeat(YAML_TEXT_LIMIT)}\n`;
    expect(readError(text)).toBe(
      `objects.yaml: ${text.length} characters of YAML, over the ${YAML_TEXT_LIMIT} crdshift reads; give it as JSON (kubectl get -o json), or split it`,
    );
    expect(parseManifests(`{"a": "${"x".repeat(YAML_TEXT_LIMIT)}"}`, "x.json")).toHaveLength(1);
  });
});
