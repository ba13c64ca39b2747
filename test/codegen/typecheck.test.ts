import { writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { PROJECT_COMPILER_OPTIONS } from "../../src/cli/scaffold";
import { kindFiles } from "../../src/codegen/kind-files";
import type { Crd } from "../../src/kube/crd/crd-document";
import { deepCrd } from "./deep-crd";
import { readCrdFile, root, scratchDir } from "./generated";

/**
 * Generated code must compile as users compile it. The schemas files import zod only: they are
 * checked alone under the tsconfig.json crdshift init writes (tsc --init's strictness, Node's ESM). The kind files import
 * crdshift: checked with this repository's sources behind the name `crdshift`.
 */
const FILES = [
  "test/fixtures/crds/widgets.example.com.yaml",
  "test/fixtures/crds/gadgets.example.com.yaml",
  "examples/crds/crontabs.example.com.yaml",
  "examples/crds/crontabs.stable.example.com.yaml",
];
const crds: Crd[] = [...FILES.flatMap(readCrdFile), deepCrd(24)];
const scratch = scratchDir("typecheck");
afterAll(() => scratch.remove());

/** The tsconfig.json crdshift init writes, without @types (the schemas files need none). */
const strict: ts.CompilerOptions = {
  ...ts.convertCompilerOptionsFromJson(PROJECT_COMPILER_OPTIONS, root).options,
  types: [],
};

function diagnostics(files: string[], options: ts.CompilerOptions): string[] {
  const program = ts.createProgram(files, options);
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) =>
        `${d.file ? `${d.file.fileName.slice(scratch.dir.length + 1)}: ` : ""}${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`,
    );
}

describe("generated code", () => {
  const written = crds.map((crd) => {
    const files = kindFiles(crd, { crdFile: `crds/${crd.name}.yaml` });
    writeFileSync(join(scratch.dir, files.schemasFile), files.schemas);
    writeFileSync(join(scratch.dir, files.kindFile), files.kind);
    return files;
  });

  it("type-checks: the schemas under strict nodenext settings, 24 levels deep included (TS2589 otherwise)", () => {
    expect(
      diagnostics(
        written.map((files) => join(scratch.dir, files.schemasFile)),
        strict,
      ),
    ).toEqual([]);
  }, 120_000);

  it("type-checks: the kind files and a registry of them against crdshift's API, converters included", () => {
    const registry = join(scratch.dir, "registry.ts");
    writeFileSync(
      registry,
      `import { createRegistry } from "crdshift";\n${written.map((files, i) => `import * as kind${i} from "./${files.base}.js";`).join("\n")}\nexport const registry = createRegistry([${written.map((files, i) => `kind${i}.${files.constant}`).join(", ")}]);\n`,
    );
    const options: ts.CompilerOptions = {
      ...strict,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
      types: ["node"],
      // crdshift's own sources are compiled here too, under its own setting.
      exactOptionalPropertyTypes: false,
      verbatimModuleSyntax: false,
      baseUrl: root,
      paths: { crdshift: ["src/index.ts"] },
    };
    expect(diagnostics([registry], options)).toEqual([]);
  }, 120_000);

  it("type-checks the author's side: enum literals, and mapping() paths typed by the generated schemas", () => {
    const file = join(scratch.dir, "authoring.ts");
    writeFileSync(
      file,
      `import { mapping } from "crdshift";
import { type EnumValue, enums, versions } from "./widgets.example.com.schemas.js";

export const small: EnumValue<"v1", "spec.mode"> = "Small";
// @ts-expect-error -- not one of the enum's values
export const medium: EnumValue<"v1", "spec.mode"> = "Medium";
export const same = mapping(
  { schema: versions.v1beta1, enums: enums.v1beta1 },
  { schema: versions.v1, enums: enums.v1 },
  { enums: { "spec.ports[].protocol": { TCP: "TCP", UDP: "UDP" } } },
);
// @ts-expect-error -- not a field of v1beta1
export const typo = mapping(versions.v1beta1, versions.v1, { rename: { "spec.mod": "spec.mode" } });
`,
    );
    const options: ts.CompilerOptions = {
      ...strict,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
      types: ["node"],
      exactOptionalPropertyTypes: false,
      verbatimModuleSyntax: false,
      baseUrl: root,
      paths: { crdshift: ["src/index.ts"] },
    };
    expect(diagnostics([file], options)).toEqual([]);
  }, 120_000);
});
