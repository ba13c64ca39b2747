import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { type Registry, firstStackFrame, DefinitionError } from "../conversion";
import { UsageError } from "./io";

/**
 * A registry module that cannot be used, said in one line with the fix, never a stack trace:
 * main prints it as `crdshift <command>: <what> — <fix>` and exits 2.
 */
export class RegistryLoadError extends UsageError {
  override name = "RegistryLoadError";
}

/** What a project's crdshift.config.* (or `--registry FILE`) gives the commands. */
export interface Project {
  registry: Registry;
  /** The CRD files the module's `crds` export lists, as absolute paths (relative to the module). */
  crds: string[];
  /** How each CRD file is named in reports: as the module lists it. */
  crdNames: string[];
}

/**
 * A registry from a user's module (TypeScript or JavaScript) exporting `registry` (or a default
 * export), and the CRD files its `crds` export lists: bundled with esbuild first, so converters
 * written in TypeScript load as they are. `source` names the module in messages
 * (`--registry FILE`, `crdshift.config.ts`).
 */
export async function loadProject(file: string, source: string): Promise<Project> {
  const dir = mkdtempSync(join(tmpdir(), "crdshift-registry-"));
  try {
    const { build } = await import("esbuild");
    const outfile = join(dir, "registry.mjs");
    try {
      // Inline source maps: a converter's stack names the user's file and line (bin/crdshift.mjs turns them on).
      await build({
        entryPoints: [resolve(file)],
        bundle: true,
        platform: "node",
        format: "esm",
        target: "node20",
        outfile,
        logLevel: "silent",
        sourcemap: "inline",
      });
    } catch (error) {
      throw new RegistryLoadError(`cannot load ${source}: ${buildErrorText(error)} — fix it so that it compiles`);
    }
    let module: { registry?: Registry; default?: Registry; crds?: unknown };
    try {
      module = (await import(pathToFileURL(outfile).href)) as typeof module;
    } catch (error) {
      throw new RegistryLoadError(importErrorText(source, error));
    }
    const registry = module.registry ?? module.default;
    if (!registry || typeof registry.lookup !== "function")
      throw new RegistryLoadError(
        `${source} exports no registry — export const registry = createRegistry([...]) (or export { registry } from "./src/registry.js")`,
      );
    const crdNames = crdsOf(module.crds, source);
    return { registry, crds: crdNames.map((name) => resolve(dirname(resolve(file)), name)), crdNames };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `loadProject`'s registry alone (`crdshift diff --against`). */
export async function loadRegistry(file: string, source: string): Promise<Registry> {
  return (await loadProject(file, source)).registry;
}

function crdsOf(crds: unknown, source: string): string[] {
  if (crds === undefined) return [];
  if (!Array.isArray(crds) || !crds.every((name) => typeof name === "string" && name !== ""))
    throw new RegistryLoadError(
      `${source} exports crds that is not a list of file names — export const crds = ["crds/my-crd.yaml"] (relative to ${source})`,
    );
  return crds as string[];
}

/** esbuild's first error with its place, not its "Build failed with 1 error:" heading. */
function buildErrorText(error: unknown): string {
  const errors = (error as { errors?: Array<{ text: string; location?: { file: string; line: number } | null }> })
    .errors;
  const first = errors?.[0];
  if (first) return first.location ? `${first.location.file}:${first.location.line}: ${first.text}` : first.text;
  return String((error as Error).message ?? error).split("\n")[0]!;
}

/** A module that threw as it loaded: defineKind's own words carry their fix; anything else names where. */
function importErrorText(source: string, error: unknown): string {
  if (error instanceof DefinitionError || (error instanceof Error && error.name === "DefinitionError")) {
    // One from another copy of crdshift is read for the same field.
    const { fix } = error as DefinitionError;
    return fix !== undefined
      ? `${source}: ${error.message}`
      : `${source}: ${error.message} — fix the definition it names`;
  }
  const what = error instanceof Error ? `${error.name}: ${error.message.split("\n")[0]}` : String(error);
  const frame = firstStackFrame(error);
  return `${source} threw while loading: ${what} — fix the module so that it loads${frame ? ` (${frame})` : ""}`;
}
