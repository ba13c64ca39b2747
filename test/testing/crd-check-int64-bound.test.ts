import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readCrdFile } from "../../src/cli/crd-files";
import { main } from "../../src/cli/main";
import { checkAgainstCrd } from "../../src/check/crd-check";
import { scratchDir } from "../codegen/generated";
import { atLimitRegistry, pastLimitRegistry } from "../fixtures/quota-kinds";

const FILE = "test/fixtures/crds/quotas.example.com.yaml";
const [crd] = readCrdFile(FILE).crds;

describe("an int64 bound a double cannot hold (maximum: 9223372036854775807)", () => {
  it("is read exactly, as the webhook reads JSON", () => {
    expect(crd!.versions[1]!.schema!.properties!.spec!.properties!.limit!.maximum).toBe(9223372036854775807n);
  });

  it("holds results to it exactly in checkAgainstCrd: the bound passes, one past it fails", async () => {
    const within = await checkAgainstCrd(atLimitRegistry, crd!, { runs: 30, seed: 1 });
    expect(within.failure).toBeUndefined();
    expect(within.ok).toBe(true);
    const past = await checkAgainstCrd(pastLimitRegistry, crd!, { runs: 30, seed: 1 });
    expect(past.ok).toBe(false);
    expect(past.failure).toContain("spec.limit: 9223372036854775808 is above the maximum 9223372036854775807");
  });

  const scratch = scratchDir("int64-bound");
  afterAll(() => scratch.remove());

  async function checkCommand(registry: string) {
    const dir = join(scratch.dir, registry);
    mkdirSync(dir);
    writeFileSync(
      join(dir, "crdshift.config.ts"),
      `export { ${registry} as registry } from "../../../fixtures/quota-kinds";\nexport const crds = ["../../../fixtures/crds/quotas.example.com.yaml"];\n`,
    );
    let stdout = "";
    let stderr = "";
    const io = { out: (t: string) => (stdout += t), err: (t: string) => (stderr += t), stdin: () => "", cwd: dir };
    const code = await main(["check", "--runs", "30", "--seed", "1"], io);
    return { code, stdout, stderr };
  }

  it("holds results to it exactly in crdshift check", async () => {
    const within = await checkCommand("atLimitRegistry");
    expect(within.stderr).toBe("");
    expect(within.code).toBe(0);
    const past = await checkCommand("pastLimitRegistry");
    expect(past.code).toBe(1);
    expect(past.stderr).toContain("spec.limit: 9223372036854775808 is above the maximum 9223372036854775807");
  });
});
