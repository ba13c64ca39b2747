#!/usr/bin/env node
// The `crdshift` command. It runs the CLI from source (src/cli, with the registry in examples/),
// bundled by esbuild into dist/cli/ whenever a source file is newer than the bundle, so an
// edited converter is what the next run uses.
import { existsSync, readdirSync, statSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const outfile = `${root}dist/cli/crdshift.mjs`;

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

const stale = !existsSync(outfile) || statSync(outfile).mtimeMs < Math.max(newest(`${root}src`), newest(`${root}examples`));
if (stale) {
  const { build } = await import("esbuild");
  await build({
    entryPoints: [`${root}src/cli/main.ts`],
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    packages: "external",
    outfile,
    logLevel: "warning",
    sourcemap: true,
  });
}
// Stacks in `crdshift check` reports then name the converter's own source file and line.
process.setSourceMapsEnabled(true);
const { main } = await import(pathToFileURL(outfile).href);
process.exitCode = await main(process.argv.slice(2));
