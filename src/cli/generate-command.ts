import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { kindFiles } from "../codegen";
import { kindLabel } from "../kube";
import { sortVersions } from "../conversion";
import { readCrdFile } from "./crd-files";
import type { Output } from "./io";

export interface GenerateOptions {
  crds: string[];
  /** Where the kind files live (default `src/kinds`). */
  dir?: string;
  /** Where relative paths start (default: the process's). */
  cwd?: string;
}

/**
 * `crdshift generate`: writes each CRD's `<plural>.<group>.schemas.ts` again from its current
 * openAPIV3Schema, and never touches the author's `<plural>.<group>.ts` beside it (it writes one
 * only for a CRD that has none yet). A version the CRD gained or lost is reported: defineKind
 * will name the converters that are then missing or left over.
 */
export function generateSchemas(options: GenerateOptions, io: Output): void {
  const cwd = options.cwd ?? process.cwd();
  const dir = resolve(cwd, options.dir ?? "src/kinds");
  const shown = relative(cwd, dir).split(sep).join("/") || ".";
  mkdirSync(dir, { recursive: true });
  for (const file of options.crds) {
    const { crds } = readCrdFile(resolve(cwd, file), file);
    const crdFile = relative(cwd, resolve(cwd, file)).split(sep).join("/");
    for (const crd of crds) {
      const files = kindFiles(crd, { crdFile });
      const schemasPath = join(dir, files.schemasFile);
      const before = existsSync(schemasPath) ? listedVersions(readFileSync(schemasPath, "utf8")) : undefined;
      writeFileSync(schemasPath, files.schemas);
      const now = sortVersions(crd.versions.map((version) => version.name));
      io.out(`wrote ${shown}/${files.schemasFile}: ${kindLabel(crd)} (${now.join(", ")})\n`);
      const kindPath = join(dir, files.kindFile);
      if (!existsSync(kindPath)) {
        writeFileSync(kindPath, files.kind);
        io.out(
          `wrote ${shown}/${files.kindFile}, a new kind: add ${files.constant} to your registry (import { ${files.constant} } from "./kinds/${files.base}.js")\n`,
        );
        continue;
      }
      const added = before ? now.filter((version) => !before.includes(version)) : [];
      const removed = before ? before.filter((version) => !now.includes(version)) : [];
      for (const version of added)
        io.out(
          `  ${version} is new: write its converters in ${shown}/${files.kindFile} (defineKind names the ones missing; npm run check proves them)\n`,
        );
      for (const version of removed)
        io.out(`  ${version} is no longer in the CRD: remove its converters from ${shown}/${files.kindFile}\n`);
    }
  }
}

/** The versions a generated schemas file was written for (its `// versions:` line). */
function listedVersions(source: string): string[] | undefined {
  const line = /^\/\/ versions: (.*)$/m.exec(source);
  return line ? line[1]!.split(" ").filter(Boolean) : undefined;
}
