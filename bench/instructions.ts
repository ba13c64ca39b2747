import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Mode } from "./instruction-modes";
import { besideBench } from "./paths";
import { median } from "./stats";

/**
 * Instruction counts, the unit a busy machine does not move, from valgrind: whole runs with
 * cachegrind (the same count as callgrind's, and faster) without cache or branch
 * simulation; parts of a run with callgrind, which can zero and write out its counters when
 * the program enters a given function. Made repeatable to a few parts per million by turning
 * off what varies between runs of node: address randomization (`setarch -R`), V8's random and
 * hash seeds, and its background threads (`--single-threaded`: compilation and GC run on the
 * main thread, in the same order every run). Children get only PATH from the environment: a
 * NODE_EXTRA_CA_CERTS alone adds 400 million instructions to every start.
 */
const VALGRIND = ["--tool=cachegrind", "--cache-sim=no", "--branch-sim=no", "--cachegrind-out-file=/dev/null"];
export const NODE_FLAGS = ["--hash-seed=1", "--random-seed=1", "--single-threaded"];

export function valgrindMissing(): string | undefined {
  if (spawnSync("valgrind", ["--version"]).error) return "valgrind is not installed";
  return undefined;
}

export const setarch = spawnSync("setarch", ["-R", "true"]).status === 0;

/**
 * valgrind's callgrind, counting only between the marks a program makes (os.hostname() starts
 * a block, os.uptime() ends it), writing to `outFile`; then node with the repeatable flags.
 */
export function callgrindBlocks(outFile: string, extra: string[] = []): string[] {
  return [
    ...(setarch ? ["setarch", "-R"] : []),
    "valgrind",
    "--tool=callgrind",
    `--callgrind-out-file=${outFile}`,
    "--zero-before=node::os::GetHostname*",
    "--dump-before=node::os::GetUptime*",
    ...extra,
    process.execPath,
    ...NODE_FLAGS,
  ];
}

export interface Counted {
  instructions: number;
  /** What the program wrote on fd 3 (the Lambda host's results). */
  fd3: string;
}

/** Instructions of one run of `node <args>`, stdin `input`, environment `env`. */
export function countInstructions(args: string[], options: { input?: string; env?: Record<string, string> } = {}) {
  const command = [
    ...(setarch ? ["setarch", "-R"] : []),
    "valgrind",
    ...VALGRIND,
    process.execPath,
    ...NODE_FLAGS,
    ...args,
  ];
  return new Promise<Counted>((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), {
      env: { PATH: process.env.PATH ?? "", ...options.env },
      stdio: ["pipe", "ignore", "pipe", "pipe"],
    });
    let stderr = "";
    let fd3 = "";
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    child.stdio[3]!.on("data", (chunk) => (fd3 += chunk));
    child.stdin!.end(options.input ?? "");
    child.on("error", reject);
    child.on("close", (code) => {
      const match = /I\s+refs:\s+([\d,]+)/.exec(stderr);
      if (code !== 0 || !match)
        reject(new Error(`valgrind node ${args.join(" ")}: exit ${code}\n${stderr.slice(-2000)}`));
      else resolve({ instructions: Number(match[1]!.replaceAll(",", "")), fd3 });
    });
  });
}

/** Runs `jobs` at most `width` at a time: counts do not depend on what else runs, so they can overlap. */
export async function inParallel<T>(jobs: Array<() => Promise<T>>, width = 2): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const index = next++;
      results[index] = await jobs[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, jobs.length) }, worker));
  return results;
}

const CHILD = besideBench("instructions-child.mjs");

/**
 * What the optimizing compiler and deoptimization cost inside a block: V8 recompiles now and
 * then long after warm-up (a deoptimization, then a new tier-up), tens of millions of
 * instructions at once that depend on the history of the process, not on the review.
 */
const JIT =
  /^\s*([\d,]+) .*v8::internal::Runtime_(CompileOptimized|CompileLazy|NotifyDeoptimized|CompileOnStackReplacement|InstallBaselineCode|CompileBaseline)\(/gm;

export interface PerReview {
  /** Median over blocks of instructions per review, JIT compilation left out. */
  instructions: number;
  /** Each block's figure, in order. */
  blocks: number[];
}

/**
 * Instructions per review of `objects` objects (1 unless given) the `mode` way, in one process under callgrind: after
 * `warm` reviews, `blocks` blocks of `count`, each counted alone (the child marks where with
 * os.hostname() and os.uptime()), less any JIT compilation inside the block. Young-generation
 * collections fall in every block and are counted. No forced collection between blocks: it
 * costs the next block part of V8's optimized code (about an eighth more instructions).
 */
export async function perReview(
  mode: Mode,
  { warm = 300, count = 200, blocks = 5, objects = 1 } = {},
): Promise<PerReview> {
  const dir = mkdtempSync(join(tmpdir(), "crdshift-callgrind-"));
  try {
    const command = [
      ...callgrindBlocks(`${dir}/out`),
      CHILD,
      mode,
      String(warm),
      String(count),
      String(blocks),
      String(objects),
    ];
    await new Promise<void>((resolve, reject) => {
      const child = spawn(command[0]!, command.slice(1), {
        env: { PATH: process.env.PATH ?? "" },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      child.stderr!.on("data", (chunk) => (stderr += chunk));
      child.on("error", reject);
      child.on("close", (code) =>
        code === 0 ? resolve() : reject(new Error(`callgrind ${mode}: exit ${code}\n${stderr.slice(-2000)}`)),
      );
    });
    const figures = [];
    for (let block = 1; block <= blocks; block++) figures.push(blockInstructions(`${dir}/out.${block}`) / count);
    if (figures.some((f) => !Number.isFinite(f))) throw new Error(`callgrind ${mode}: a block was not counted`);
    return { instructions: median(figures), blocks: figures };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The instructions of one block callgrind dumped to `file`, JIT compilation left out. */
export function blockInstructions(file: string): number {
  const total = Number(/^summary: (\d+)/m.exec(readFileSync(file, "utf8"))?.[1] ?? NaN);
  const annotated = spawnSync("callgrind_annotate", ["--inclusive=yes", "--threshold=100", file], {
    encoding: "utf8",
    maxBuffer: 256 * 2 ** 20,
  }).stdout;
  let jit = 0;
  for (const match of annotated.matchAll(JIT)) jit += Number(match[1]!.replaceAll(",", ""));
  return total - jit;
}
