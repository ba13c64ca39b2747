import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main";

/** Nine lists of nine aliases of the list below: 9^9 copies of `lol` once expanded. */
function billionLaughs(): string {
  const lines = ["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
  for (let i = 1; i <= 9; i++)
    lines.push(
      `l${i}: &l${i} [${Array(9)
        .fill(`*l${i - 1}`)
        .join(", ")}]`,
    );
  return `${lines.join("\n")}\n`;
}

const HOSTILE: Record<string, string> = {
  "billion-laughs.yaml": `apiVersion: example.com/v1beta1\nkind: CronTab\nmetadata: {name: a}\n${billionLaughs()}`,
  // 1,000 aliases of a 1 MiB string: a gigabyte to print, under any count of aliases.
  "aliased-string.yaml": `apiVersion: example.com/v1beta1\nkind: CronTab\nmetadata: {name: a}\ns: &s ${"x".repeat(1 << 20)}\nmany: [${Array(1000).fill("*s").join(", ")}]\n`,
  "cycle.yaml": "apiVersion: example.com/v1beta1\nkind: CronTab\nmetadata: &m {name: a, self: *m}\n",
  "deep.yaml": `apiVersion: example.com/v1beta1\nkind: CronTab\nspec: ${"[".repeat(50_000)}${"]".repeat(50_000)}\n`,
  "escape.yaml": "apiVersion: example.com/v1beta1\nkind: CronTab\nspec: [1, \u001b[2J\r\n",
};

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "crdshift-hostile-"));
  for (const [name, text] of Object.entries(HOSTILE)) writeFileSync(join(dir, name), text);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function crdshift(...args: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(args, { out: (t) => (stdout += t), err: (t) => (stderr += t), stdin: () => "" });
  return { code, stdout, stderr };
}

/** A bad input's whole report: one line on stderr naming the file, nothing on stdout, exit 2. */
function expectOneLine(result: { code: number; stdout: string; stderr: string }, file: string, stdout = "") {
  expect(result.stdout).toBe(stdout);
  expect(result.stderr).toMatch(new RegExp(`^crdshift: ${file.replace(".", "\\.")}: [^\\n]+\\n$`));
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stderr).not.toContain("\u001b");
  expect(result.stderr).not.toContain("\r");
  expect(result.code).toBe(2);
}

describe("hostile YAML files: one line with the fix, exit 2, never a stack", { timeout: 60_000 }, () => {
  for (const file of Object.keys(HOSTILE)) {
    it(`crdshift convert -f ${file}`, async () => {
      const path = join(dir, file);
      const result = await crdshift("convert", "-f", path, "--to", "example.com/v1");
      expectOneLine(result, path);
    });
  }

  it("names what is wrong, and what to do about it", async () => {
    const convert = (file: string) => crdshift("convert", "-f", join(dir, file), "--to", "example.com/v1");
    expect((await convert("billion-laughs.yaml")).stderr).toMatch(
      /document 1: its aliases expand to more than 16777216 characters \(an alias bomb\?\); write the values out, or give the objects as JSON\n$/,
    );
    expect((await convert("aliased-string.yaml")).stderr).toMatch(/its aliases expand to more than/);
    expect((await convert("cycle.yaml")).stderr).toMatch(/document 1: the alias \*m is inside the node it names\n$/);
    expect((await convert("deep.yaml")).stderr).toMatch(/document 1 is not valid YAML: nested too deeply/);
  });

  it("the same for a CRD given to doctor, check and crd", async () => {
    const path = join(dir, "billion-laughs.yaml");
    expectOneLine(await crdshift("doctor", "-f", path, "--offline"), path);
    // check says first that it did not type-check (no --typecheck), then reads the CRD.
    const check = await crdshift("check", "--crd", path);
    expect(check.stdout).toMatch(/^not type-checked: [^\n]*\n$/);
    expectOneLine(check, path, check.stdout);
    expectOneLine(await crdshift("crd", "-f", path, "--url", "https://example.com/convert"), path);
  });

  it("the same for a golden file", async () => {
    const golden = join(dir, "golden");
    mkdirSync(join(golden, "bomb"), { recursive: true });
    writeFileSync(join(golden, "bomb", "v1beta1.yaml"), HOSTILE["billion-laughs.yaml"]!);
    const result = await crdshift("golden", "record", "--dir", golden);
    expect(result.stderr).toMatch(
      /^crdshift: bomb\/v1beta1\.yaml: document 1: its aliases expand to more than \d+ characters[^\n]*\n$/,
    );
    expect(result.code).toBe(2);
  });
});

describe("what a file says, as convert repeats it", () => {
  it("a kind it passes through is named with its control characters escaped", async () => {
    let stderr = "";
    const object = { apiVersion: "other.example.com/v1", kind: "Evil\u001b[2J\r", metadata: { name: "x" } };
    const code = await main(["convert", "-f", "-", "--to", "example.com/v1"], {
      out: () => {},
      err: (t) => (stderr += t),
      stdin: () => JSON.stringify(object),
    });
    expect(code).toBe(0);
    expect(stderr).toBe(
      "crdshift: stdin: document 0 (x) Evil\\x1b[2J\\r other.example.com/v1: not in group example.com; passed through unchanged\n",
    );
  });
});

describe("the CLI's backstop", () => {
  it("an error no command expected is one line and exit 2, not a stack", async () => {
    let stderr = "";
    const code = await main(["convert", "-f", "-", "--to", "example.com/v1"], {
      out: () => {},
      err: (t) => (stderr += t),
      stdin: () => {
        throw new TypeError("stdin broke\n    at somewhere (file.js:1:1)");
      },
    });
    expect(code).toBe(2);
    expect(stderr).toBe(
      "crdshift convert: TypeError: stdin broke\\n    at somewhere (file.js:1:1) (unexpected: please report it; CRDSHIFT_DEBUG=1 prints the stack)\n",
    );
  });
});
