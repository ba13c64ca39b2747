import * as core from "zod/v4/core";
import { afterAll, describe, expect, it } from "vitest";
import { enumValues } from "../../src/codegen/enum-values";
import { loadGenerated, readCrdFile, scratchDir } from "./generated";

const scratch = scratchDir("enum-values");
afterAll(() => scratch.remove());

describe("generated enums", () => {
  it("lists each string enum by the path mapping() uses, items of arrays as []", () => {
    const [widgets] = readCrdFile("test/fixtures/crds/widgets.example.com.yaml");
    const v1 = widgets!.versions.find((version) => version.name === "v1")!;
    expect(enumValues(v1.schema)).toMatchObject({
      "spec.mode": ["Small", "Large"],
      "spec.ports[].protocol": ["TCP", "UDP"],
      "status.conditions[].status": ["True", "False", "Unknown"],
    });
  });

  it("are exported beside the schemas, which still accept any string there (objects stored before an enum tightened)", async () => {
    const [widgets] = readCrdFile("test/fixtures/crds/widgets.example.com.yaml");
    const { files, versions } = await loadGenerated(widgets!, scratch.dir);
    expect(files.schemas).toContain('"spec.mode": ["Small", "Large"],');
    expect(files.schemas).toContain("export type EnumValue<");
    const module = (await import(`${scratch.dir}/${files.schemasFile}`)) as { enums: Record<string, unknown> };
    expect(module.enums.v1).toMatchObject({ "spec.mode": ["Small", "Large"] });
    expect(core.safeParse(versions.v1!, { spec: { mode: "Medium" } }).success).toBe(true);
  });
});
