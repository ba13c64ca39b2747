import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { main } from "../../src/cli/main";
import { scratchDir } from "../codegen/generated";

// What `crdshift check` says it accepted because the kind declared it: a gap, an alias lost.

const scratch = scratchDir("check-declarations");
afterAll(() => scratch.remove());

const version = (name: string, storage: boolean, modes: string[], required: string[]) => ({
  name,
  served: true,
  storage,
  schema: {
    openAPIV3Schema: {
      type: "object",
      required,
      properties: { spec: { type: "object", properties: { mode: { type: "string", enum: modes } } } },
    },
  },
});
const CRD = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "queues.example.com" },
  spec: {
    group: "example.com",
    scope: "Namespaced",
    names: { kind: "Queue", plural: "queues", singular: "queue" },
    versions: [
      version("v1", false, ["Preempt", "MayStopSearch"], []),
      version("v2", true, ["MayStopSearch"], ["spec"]),
    ],
  },
};

const kinds = (gaps: string) => `import * as z from "zod/mini";
import { createRegistry, defineKind, mapping } from "../../../../src/conversion";
const schema = z.looseObject({ spec: z.optional(z.looseObject({ mode: z.optional(z.string()) })) });
const queue = mapping(
  { schema, enums: { "spec.mode": ["Preempt", "MayStopSearch"] } },
  { schema, enums: { "spec.mode": ["MayStopSearch"] } },
  { enums: { "spec.mode": { MayStopSearch: "MayStopSearch", Preempt: { alias: "MayStopSearch", back: "lose" } } } },
);
export const registry = createRegistry([
  defineKind({
    group: "example.com",
    kind: "Queue",
    versions: { v1: schema, v2: schema },
    converters: { v1: { v2: queue.up }, v2: { v1: queue.down } },
    ${gaps}
  }),
]);
`;

async function check(gaps: string) {
  const dir = join(scratch.dir, `p${gaps.length}`);
  mkdirSync(dir);
  writeFileSync(join(dir, "queues.json"), JSON.stringify(CRD));
  writeFileSync(join(dir, "kinds.ts"), kinds(gaps));
  writeFileSync(
    join(dir, "crdshift.config.ts"),
    `export { registry } from "./kinds";\nexport const crds = ["queues.json"];\n`,
  );
  let [stdout, stderr] = ["", ""];
  const code = await main(["check", "--seed", "2"], {
    out: (text) => (stdout += text),
    err: (text) => (stderr += text),
    stdin: () => "",
    cwd: dir,
  });
  return { code, stdout, stderr };
}

it("names each declaration it accepted, with how often and why, and fails without the gap", async () => {
  const declared = await check(`gaps: { "v1->v2": { spec: "v1 objects may have no spec" } },`);
  expect(declared.stderr).toBe("");
  expect(declared.code).toBe(0);
  expect(declared.stdout).toMatch(
    /\n {4}accepted \d+ time\(s\) under gaps: spec missing in v2, required there, absent in the v1 input \(v1 objects may have no spec\)\n/,
  );
  expect(declared.stdout).toMatch(
    /\n {4}accepted \d+ time\(s\) as mapping\(\) declared: spec\.mode "Preempt" came back "MayStopSearch" \(an alias, back: "lose"\)\n/,
  );
  const undeclared = await check("");
  expect(undeclared.code).toBe(1);
  expect(undeclared.stderr).toMatch(/the v2 result breaks the CRD's v2 schema: spec: missing, but required/);
}, 60_000);
