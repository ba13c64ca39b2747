import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { scratchDir } from "../codegen/generated";

// `crdshift check` on CRDs built to hang it, exhaust its memory or overflow its stack: each
// ends in bounded time with one line and exit 2 (a CRD the apiserver refuses, or crdshift cannot
// read) or with a finding (exit 1), never a stack trace. The real command, through dist/.
const root = fileURLToPath(new URL("../..", import.meta.url));
const BIN = `${root}bin/crdshift.mjs`;
const PUMPS = readFileSync(`${root}test/fixtures/crds/pumps.example.com.yaml`, "utf8");

const scratch = scratchDir("check-hostile");
afterAll(() => scratch.remove());
writeFileSync(
  join(scratch.dir, "crdshift.config.ts"),
  `export { mappedRegistry as registry } from "../../fixtures/pump-kinds";\n`,
);

/** The pumps CRD with `field` (YAML, at spec.properties) added to both versions. */
function withField(name: string, field: string): string {
  const text = PUMPS.replaceAll(
    "                restartPolicy:\n",
    `                ${field}\n                restartPolicy:\n`,
  );
  writeFileSync(join(scratch.dir, name), text);
  return name;
}

function check(file: string) {
  const result = spawnSync(process.execPath, [BIN, "check", "--crd", file, "--runs", "20", "--seed", "1"], {
    cwd: scratch.dir,
    encoding: "utf8",
    // A hang is a failure, not a stuck suite: it used to run for minutes or hours.
    timeout: 100_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, signal: result.signal };
}

/** One line with the fix, exit 2, no stack. */
function expectUsageLine(result: ReturnType<typeof check>, text: string) {
  expect(result.signal).toBeNull();
  expect(result.code).toBe(2);
  expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(result.stderr).toContain(text);
  expect(result.stderr).not.toMatch(/^\s+at /m);
}

const TIMEOUT = 120_000;

describe("crdshift check on hostile CRDs", () => {
  it(
    "refuses a pattern RE2 rejects as the apiserver does: one line, exit 2",
    () => {
      const file = withField("lookahead.yaml", 'name2: { type: string, pattern: "^(?=a)a+$" }');
      expectUsageLine(
        check(file),
        `crdshift: lookahead.yaml: document 1 (pumps.example.com): spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[name2].pattern: Invalid value: "^(?=a)a+$": must be a valid regular expression, but isn't: error parsing regexp: invalid or unsupported Perl syntax: \`(?=\``,
      );
    },
    TIMEOUT,
  );

  it(
    "says a schema nested 1,500 levels is deeper than it reads: one line, exit 2",
    () => {
      const crd = parse(PUMPS);
      let deep: object = { type: "string" };
      for (let i = 0; i < 1500; i++) deep = { type: "object", properties: { x: deep } };
      for (const version of crd.spec.versions) version.schema.openAPIV3Schema.properties.spec.properties.deep = deep;
      writeFileSync(join(scratch.dir, "deep.json"), JSON.stringify(crd));
      expectUsageLine(check("deep.json"), "the schema nests more than 200 levels deep, more than crdshift reads");
    },
    TIMEOUT,
  );

  it(
    "reports constraints no value meets, and sizes no object has, as findings naming the place",
    () => {
      const unsat = check(withField("unsat.yaml", 'name2: { type: string, pattern: "^a$", minLength: 2 }'));
      expect(unsat.code).toBe(1);
      expect(unsat.stderr).toContain(
        "crdshift check: FAILED\nPump.example.com v1: cannot generate objects: spec.name2: no value meets pattern ^a$, minLength 2",
      );
      const required = check(
        withField(
          "required.yaml",
          "obj: { type: object, maxProperties: 1, required: [a, b], properties: { a: { type: string }, b: { type: string } } }",
        ),
      );
      expect(required.code).toBe(1);
      expect(required.stderr).toContain("spec.obj: 2 required fields (a, b) but maxProperties 1");
      for (const [name, field, words] of [
        ["long.yaml", "big: { type: string, minLength: 100000000 }", "minLength 100000000"],
        ["items.yaml", "big: { type: array, minItems: 50000000, items: { type: string } }", "minItems 50000000"],
        [
          "entries.yaml",
          "big: { type: object, minProperties: 10000000, additionalProperties: { type: string } }",
          "minProperties 10000000",
        ],
      ]) {
        const result = check(withField(name!, field!));
        expect(result.code, name).toBe(1);
        expect(result.stderr, name).toContain(`spec.big: ${words} makes every value there at least`);
        expect(result.stderr, name).not.toMatch(/^\s+at /m);
      }
    },
    TIMEOUT,
  );

  it(
    "checks a pattern that backtracks in JavaScript, and stops a CEL rule of nested macros at the cost bound",
    () => {
      const list = "[1,2,3,4,5,6,7,8,9,10]";
      let rule = "true";
      for (let i = 0; i < 7; i++) rule = `${list}.all(x${i}, ${rule})`;
      const file = withField(
        "slow.yaml",
        `name2: { type: string, pattern: "^(a+)+$|^a{25,30}b$", x-kubernetes-validations: [{ rule: "${rule}" }] }`,
      );
      const result = check(file);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("not checked:");
      expect(result.stdout).toContain("not evaluated: stopped after more than 1,000,000 steps");
    },
    TIMEOUT,
  );
});
