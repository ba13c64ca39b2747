import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";

/**
 * Runs a script on another node binary (the Lambda runtime's, lambda-runtime-node.ts): bundled
 * first, with imports resolved from `resolveDir`, since that node cannot read TypeScript.
 * Returns what it wrote.
 */
export async function runBundled(
  node: string,
  script: string,
  resolveDir: string,
): Promise<{ stdout: string; stderr: string }> {
  const work = mkdtempSync(join(tmpdir(), "crdshift-bundled-"));
  try {
    const bundle = await build({
      stdin: { contents: script, resolveDir, loader: "ts" },
      bundle: true,
      platform: "node",
      format: "esm",
      write: false,
      logLevel: "silent",
    });
    const file = join(work, "script.mjs");
    writeFileSync(file, bundle.outputFiles[0]!.text);
    const run = spawnSync(node, [file], { encoding: "utf8" });
    return { stdout: run.stdout, stderr: run.stderr };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
