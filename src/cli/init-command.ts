import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import * as z from "zod/mini";
import { camelName, type KindFiles, kindFiles } from "../codegen";
import type { Crd } from "../kube/crd";
import { kindLabel } from "../kube";
import { createRegistry, defineKind, sortVersions } from "../conversion";
import { CrdError, webhookUrlError, writeConversionStanza } from "./crd-command";
import { readCrdFile } from "./crd-files";
import { type Output, UsageError } from "./io";
import { ownPackage } from "./own-package";
import { scaffoldFiles } from "./scaffold";

export interface InitOptions {
  /** The project's folder; created if missing. */
  dir: string;
  /** The CRD files to start from. */
  crds: string[];
  /** The webhook's URL with its token, written into the CRDs' conversion stanza. */
  url?: string;
  /** Write into a folder that is not empty (files crdshift writes are replaced). */
  force?: boolean;
  /** The crdshift dependency (default: `^` the running version). */
  crdshift?: string;
  /** Where `dir` and the CRD files are relative to (default: the process's). */
  cwd?: string;
}

/**
 * `crdshift init`: a new project from the CRDs a user already has. Per CRD a kind file with the
 * converters (the author's) and its schemas generated from each version's openAPIV3Schema; the
 * registry, a test of every kind against its CRD, the entries for Node, Workers and Lambda, the
 * Workers and CDK configuration, a package.json with the scripts, and the CRDs themselves.
 */
export function initProject(options: InitOptions, io: Output): void {
  if (options.crds.length === 0)
    throw new UsageError("--crd FILE is required: the CustomResourceDefinition(s) to start from");
  if (options.url !== undefined) {
    const invalid = webhookUrlError(options.url);
    if (invalid) throw new UsageError(`--url: ${invalid}`);
  }
  const cwd = options.cwd ?? process.cwd();
  const dir = resolve(cwd, options.dir);
  if (existsSync(dir) && readdirSync(dir).length > 0 && !options.force) {
    throw new UsageError(
      `${options.dir} is not empty; choose a new folder, or add --force to write into it (files crdshift writes are replaced)`,
    );
  }

  const inputs = options.crds.map((file) => ({ file, ...readCrdFile(resolve(cwd, file), file) }));
  const names = new Set<string>();
  const targets = new Set<string>();
  for (const input of inputs) {
    const target = `crds/${basename(input.file)}`;
    if (targets.has(target)) throw new UsageError(`two CRD files are named ${basename(input.file)}; rename one`);
    targets.add(target);
    for (const crd of input.crds) {
      if (names.has(crd.name)) throw new UsageError(`${crd.name} is given twice`);
      names.add(crd.name);
    }
  }

  const all = inputs.flatMap((input) => input.crds.map((crd) => ({ crd, crdFile: `crds/${basename(input.file)}` })));
  // Two kinds of one name (in two groups) get their group in their constant.
  const kindCounts = new Map<string, number>();
  for (const { crd } of all) kindCounts.set(crd.kind, (kindCounts.get(crd.kind) ?? 0) + 1);
  const kinds: Array<{ crd: Crd; files: KindFiles }> = all.map(({ crd, crdFile }) => ({
    crd,
    files: kindFiles(crd, {
      crdFile,
      ...(kindCounts.get(crd.kind)! > 1 ? { constant: camelName(`${crd.kind}-${crd.group}`) } : {}),
    }),
  }));

  const notes: string[] = [];
  const written = new Map<string, string>();
  for (const input of inputs) {
    written.set(`crds/${basename(input.file)}`, crdText(input.text, input.file, input.crds, options.url, notes));
  }
  for (const { files } of kinds) {
    written.set(`src/kinds/${files.schemasFile}`, files.schemas);
    written.set(`src/kinds/${files.kindFile}`, files.kind);
  }
  const own = ownPackage();
  const vendored = vendorTarball(options.crdshift, cwd);
  if (vendored) written.set(vendored.path, "");
  const scaffold = scaffoldFiles({
    name: packageName(dir),
    crdshift: vendored ? `file:${vendored.path}` : (options.crdshift ?? `^${own.version}`),
    versions: own.versions,
    kinds: kinds.map(({ crd, files }) => ({
      constant: files.constant,
      base: files.base,
      label: kindLabel(crd),
      versions: sortVersions(crd.versions.map((version) => version.name)),
      todos: files.todos,
    })),
    crdFiles: [...targets],
    ...(options.url !== undefined ? { url: options.url } : {}),
  });
  for (const [path, text] of scaffold) written.set(path, text);

  for (const [path, text] of written) {
    const target = join(dir, path);
    mkdirSync(dirname(target), { recursive: true });
    if (vendored && path === vendored.path) copyFileSync(vendored.source, target);
    else writeFileSync(target, text);
  }

  io.out(`crdshift init: wrote ${written.size} files in ${options.dir}\n`);
  for (const { crd, files } of kinds) {
    const state =
      files.todos.length > 0
        ? `converters to write: ${files.todos.join(", ")} (TODO comments name the fields)`
        : crd.versions.length > 1
          ? "ready: its versions declare the same fields"
          : "one version";
    io.out(
      `  src/kinds/${files.kindFile}: ${kindLabel(crd)} (${sortVersions(crd.versions.map((v) => v.name)).join(", ")}), ${state}\n`,
    );
  }
  for (const note of notes) io.err(`crdshift: ${note}\n`);
  io.out(
    `\nNext:\n  cd ${options.dir}\n  npm install\n  npm test        # every version pair round-trips, and every object the CRD accepts\n  npm start       # the webhook on http://127.0.0.1:8787/convert\nREADME.md says how to deploy it and point the CRDs at it.\n`,
  );
}

/**
 * The CRD file as the project keeps it: with the webhook stanza when the URL is known (and the
 * CRDs have versions to convert between), else as it was.
 */
function crdText(text: string, file: string, crds: Crd[], url: string | undefined, notes: string[]): string {
  if (url === undefined) return text;
  const single = crds.filter((crd) => crd.versions.length < 2);
  if (single.length > 0) {
    notes.push(
      `${file}: left without a conversion stanza: ${single.map((crd) => crd.name).join(", ")} ${single.length > 1 ? "have" : "has"} a single version, nothing to convert`,
    );
    return text;
  }
  // The stanza writer checks the versions against a registry: these CRDs' own, by construction.
  const registry = createRegistry(
    crds.map((crd) => {
      const names = sortVersions(crd.versions.map((version) => version.name));
      const same = (object: Record<string, unknown>) => object;
      const converters: Record<string, Record<string, typeof same>> = {};
      for (let i = 0; i + 1 < names.length; i++) {
        const [a, b] = [names[i]!, names[i + 1]!];
        converters[a] = { ...converters[a], [b]: same };
        converters[b] = { ...converters[b], [a]: same };
      }
      return defineKind({
        group: crd.group,
        kind: crd.kind,
        versions: Object.fromEntries(names.map((name) => [name, z.looseObject({})])),
        converters,
      });
    }),
  );
  try {
    const result = writeConversionStanza(text, file, registry, url);
    notes.push(...result.notes);
    return result.text;
  } catch (error) {
    if (error instanceof CrdError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * A crdshift tarball given as `file:…tgz` goes into the project (vendor/), and the dependency
 * names it there, relative: a teammate's checkout and CI install the same package.
 */
function vendorTarball(dependency: string | undefined, cwd: string): { source: string; path: string } | undefined {
  if (dependency === undefined || !dependency.startsWith("file:") || !dependency.endsWith(".tgz")) return undefined;
  const source = resolve(cwd, dependency.slice("file:".length));
  if (!existsSync(source) || !statSync(source).isFile()) throw new UsageError(`--crdshift ${dependency}: no such file`);
  return { source, path: `vendor/${basename(source)}` };
}

/** An npm name from the folder's: lower case letters, digits and dashes. */
function packageName(dir: string): string {
  const name = basename(dir)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[._-]+|[._-]+$/g, "");
  return name || "crd-webhook";
}
