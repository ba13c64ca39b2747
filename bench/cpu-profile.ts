import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

/** The parts of a V8 .cpuprofile (what `node --cpu-prof` writes) this reads. */
interface Profile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }>;
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * Where a request's time goes, by part, each part named for what could remove its cost. A
 * sample under one of the per-review extras (log line, token, metrics, envelope validation,
 * converter) is theirs, whatever it is doing (a log line's write, the hash in node:crypto);
 * any other goes to the innermost part on its stack, node's own included, so node's HTTP work
 * counts alike for every server. V8 gives builtins no frames of their own: JSON.parse and
 * JSON.stringify count for the part that calls them.
 */
export const PARTS = [
  "log line per review (record, JSON.stringify, write to /dev/null)",
  "token: the path token's comparison",
  "metrics",
  "envelope validation (zod)",
  "converter (the docs CronTab's v1beta1 -> v1, stash annotation)",
  "engine: JSON.parse/stringify, checks, guards, copies",
  "app: route handler, refusal checks, summary",
  "hono: router, context, response",
  "@hono/node-server: Request and Response adapter",
  "naive webhook: JSON.parse/stringify, its loop",
  "node: http parser, sockets, timers",
  "kernel: socket reads and writes (system CPU time)",
  "garbage collection",
  "outside JavaScript (syscalls, libuv, V8 runtime)",
  "other",
] as const;
export type Part = (typeof PARTS)[number];
const NODE = PARTS[10];
export const KERNEL = PARTS[11];
/**
 * Node's bindings that are a system call and little else. A sample in one is mostly kernel time,
 * or time the thread was off its core (a write to a loopback socket often hands the core to the
 * reader): the profile cannot tell, so the kernel's part comes from the system CPU time instead.
 */
const SYSCALLS = new Set(["writev", "writeBuffer", "writeString", "writeUtf8String", "writeLatin1String", "readStart"]);
/** The parts before this index are the per-review extras. */
const EXTRAS = PARTS.indexOf("engine: JSON.parse/stringify, checks, guards, copies");

/** Which source file of an esbuild bundle each line comes from, by its `// src/x.ts` markers. */
function bundleSources(bundle: string): (line: number) => string {
  const starts: Array<[number, string]> = [];
  readFileSync(bundle, "utf8")
    .split("\n")
    .forEach((text, index) => {
      const marker = /^\/\/ ((?:src|examples|bench)\/\S+)$/.exec(text);
      if (marker) starts.push([index, marker[1]!]);
    });
  return (line) => {
    let source = "";
    for (const [start, file] of starts) {
      if (start > line) break;
      source = file;
    }
    return source;
  };
}

/** The part of one frame, or undefined for a frame that says nothing (a native, a wrapper). */
function partOf(url: string, functionName: string, source: string): Part | undefined {
  if (source === "src/log.ts" || (source === "src/platforms/node/node.ts" && functionName === "")) return PARTS[0];
  if (source === "src/server/path-token.ts") return PARTS[1];
  if (source.startsWith("src/metrics/")) return PARTS[2];
  if (url.includes("/node_modules/zod/")) return PARTS[3];
  if (source.startsWith("examples/") || source === "src/conversion/stash.ts") return PARTS[4];
  if (
    source === "src/server/app.ts" ||
    source.startsWith("src/server/") ||
    source === "src/platforms/node/node-server.ts" ||
    source === "src/conversion/review-summary.ts"
  )
    return PARTS[6];
  if (/^src\/(conversion|json|kube)\//.test(source)) return PARTS[5];
  if (url.includes("/node_modules/hono/")) return PARTS[7];
  if (url.includes("/node_modules/@hono/node-server/")) return PARTS[8];
  if (source.startsWith("bench/")) return PARTS[9];
  if (url.startsWith("node:")) return NODE;
  return undefined;
}

/** Microseconds of CPU per part over the samples taken between `from` and `to` (monotonic µs). */
export function breakdown(profileFile: string, bundle: string, from: number, to: number): Map<Part, number> {
  const profile = JSON.parse(readFileSync(profileFile, "utf8")) as Profile;
  const sourceAt = bundleSources(bundle);
  const bundleUrl = pathToFileURL(bundle).href;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const cache = new Map<number, Part | "idle">();
  const classify = (leaf: number): Part | "idle" => {
    const known = cache.get(leaf);
    if (known) return known;
    const { functionName } = byId.get(leaf)!.callFrame;
    let result: Part | "idle" | undefined;
    if (functionName === "(idle)") result = "idle";
    else if (SYSCALLS.has(functionName) && byId.get(leaf)!.callFrame.url === "") result = KERNEL;
    else if (functionName === "(garbage collector)") result = PARTS[12];
    else if (functionName === "(program)") result = PARTS[13];
    else {
      let extra: Part | undefined;
      let innermost: Part | undefined;
      for (let id: number | undefined = leaf; id !== undefined && extra === undefined; id = parent.get(id)) {
        const frame = byId.get(id)!.callFrame;
        const part = partOf(frame.url, frame.functionName, frame.url === bundleUrl ? sourceAt(frame.lineNumber) : "");
        if (part && PARTS.indexOf(part) < EXTRAS) extra = part;
        innermost ??= part;
      }
      result = extra ?? innermost ?? PARTS[14];
    }
    cache.set(leaf, result);
    return result;
  };
  const totals = new Map<Part, number>();
  let time = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i]!;
    if (time < from || time > to) continue;
    const delta = profile.timeDeltas[i + 1] ?? 0; // a sample stands for the time until the next
    const part = classify(profile.samples[i]!);
    if (part !== "idle") totals.set(part, (totals.get(part) ?? 0) + delta);
  }
  return totals;
}
