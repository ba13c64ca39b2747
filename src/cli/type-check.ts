import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { UsageError, type Output } from "./io";
import { terminalText } from "./terminal-text";

/** Lines of tsc's report shown: the first errors name the fix; the rest are counted. */
const SHOWN_LINES = 20;
/** Bytes of tsc's report read: a project with thousands of errors is not kept whole. */
const READ_LIMIT = 256 * 1024;

/**
 * `crdshift check --typecheck`: the project's own `tsc --noEmit -p tsconfig.json` before any
 * converter runs, so that a type error fails by name rather than where a generated object happens
 * to reach it. Without the flag, says plainly that nothing was type-checked. False: it failed.
 */
export async function typeCheckFirst(wanted: boolean, cwd: string, io: Output): Promise<boolean> {
  if (!wanted) {
    io.out(
      "not type-checked: add --typecheck (or run tsc --noEmit first, as npm test does) to fail on a type error before any converter runs\n",
    );
    return true;
  }
  if (!existsSync(join(cwd, "tsconfig.json")))
    throw new UsageError(`--typecheck: no tsconfig.json in ${cwd} (npx tsc --init writes one)`);
  let tsc: string;
  try {
    tsc = createRequire(join(cwd, "package.json")).resolve("typescript/bin/tsc");
  } catch {
    throw new UsageError("--typecheck: TypeScript is not installed in this project (npm install -D typescript)");
  }
  const { code, output } = await run(
    process.execPath,
    [tsc, "--noEmit", "-p", "tsconfig.json", "--pretty", "false"],
    cwd,
  );
  if (code === 0) {
    io.out("type-checked: tsc --noEmit -p tsconfig.json\n");
    return true;
  }
  const lines = output.split("\n").filter((line) => line.trim() !== "");
  const shown = lines.slice(0, SHOWN_LINES).map((line) => `  ${terminalText(line)}`);
  if (lines.length > SHOWN_LINES) shown.push(`  ... and ${lines.length - SHOWN_LINES} more lines`);
  io.err(`\ncrdshift check: FAILED: tsc --noEmit -p tsconfig.json, so no converter was run\n${shown.join("\n")}\n`);
  return false;
}

function run(command: string, args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    const chunks: Buffer[] = [];
    let size = 0;
    const keep = (chunk: Buffer) => {
      if (size >= READ_LIMIT) return;
      chunks.push(chunk);
      size += chunk.length;
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output: Buffer.concat(chunks).toString("utf8") }));
  });
}
