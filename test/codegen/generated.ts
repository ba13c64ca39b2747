import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type KindFiles, kindFiles } from "../../src/codegen/kind-files";
import { type Crd, readCrds } from "../../src/kube/crd/crd-document";
import type { KindDefinition, Schema } from "../../src/conversion";

/** Generated code goes under test/.tmp (git-ignored), inside the repository so zod resolves. */
export const root = fileURLToPath(new URL("../..", import.meta.url));
const SOURCES = join(root, "src/index.ts");

export function readCrdFile(path: string): Crd[] {
  return readCrds(readFileSync(join(root, path), "utf8"), path);
}

/** A fresh folder under test/.tmp, removed by the returned function. */
export function scratchDir(name: string): { dir: string; remove: () => void } {
  const dir = join(root, "test/.tmp", `${name}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(dir, { recursive: true });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface LoadedKind {
  files: KindFiles;
  kind: KindDefinition;
  versions: Record<string, Schema>;
}

/**
 * Writes a CRD's two generated files into `dir` and imports them, as a project would: the kind
 * file's `crdshift` import points at this repository's sources.
 */
export async function loadGenerated(crd: Crd, dir: string, crdshiftModule = SOURCES): Promise<LoadedKind> {
  const files = kindFiles(crd, { crdFile: `crds/${crd.name}.yaml`, crdshiftModule });
  writeFileSync(join(dir, files.schemasFile), files.schemas);
  writeFileSync(join(dir, files.kindFile), files.kind);
  const kindModule = (await import(join(dir, files.kindFile))) as Record<string, KindDefinition>;
  const schemasModule = (await import(join(dir, files.schemasFile))) as { versions: Record<string, Schema> };
  return { files, kind: kindModule[files.constant]!, versions: schemasModule.versions };
}
