import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Registry } from "../registry";
import { UsageError } from "./io";

/**
 * A registry from a user's module (TypeScript or JavaScript) exporting `registry` (or a default
 * export): bundled with esbuild first, so converters written in TypeScript load as they are.
 * `source` names the module in messages (`--registry FILE`, `crdshift.config.ts`).
 */
export async function loadRegistry(file: string, source: string): Promise<Registry> {
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
      throw new UsageError(`cannot load ${source}: ${(error as Error).message.split("\n")[0]}`);
    }
    const module = (await import(pathToFileURL(outfile).href)) as { registry?: Registry; default?: Registry };
    const registry = module.registry ?? module.default;
    if (!registry || typeof registry.lookup !== "function")
      throw new UsageError(`${source} exports no registry (export const registry = createRegistry([...]))`);
    return registry;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
