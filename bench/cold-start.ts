import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { functionUrlEvent } from "../test/bundles/function-url-event";
import { type Counted, countInstructions } from "./instructions";
import { besideBench, inRepo } from "./paths";
import { median } from "./stats";

const CRDSHIFT = inRepo("build/lambda/index.mjs");
const MINIMAL = besideBench("minimal-lambda/index.mjs");
// The same host the tests use: a plain node process that imports the bundle, as Lambda does,
// and writes each invocation's result on fd 3 (stdout and stderr are the function's log).
const HOST = inRepo("test/bundles/lambda-host.mjs");
const TOKEN = "bench-token-0123456789abcdef";
const ENV = { CRDSHIFT_TOKEN: TOKEN };

const EVENT_LINE = `${JSON.stringify({
  event: functionUrlEvent({
    path: `/convert/${TOKEN}`,
    body: JSON.stringify({
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "ConversionReview",
      request: {
        uid: "u",
        desiredAPIVersion: "example.com/v1",
        objects: [{ apiVersion: "example.com/v1beta1", kind: "CronTab", metadata: { name: "a" }, hostPort: "h:1" }],
      },
    }),
  }),
})}\n`;

function answered(bundle: string, fd3: string): void {
  const expected = bundle === CRDSHIFT ? '\\"status\\":\\"Success\\"' : '"statusCode":200';
  if (!fd3.includes(expected)) throw new Error(`cold start of ${bundle} did not answer: ${fd3.slice(0, 500)}`);
}

function missing(): void {
  if (!existsSync(CRDSHIFT)) throw new Error("build/lambda/index.mjs is missing: npm run build:lambda");
  if (!existsSync(MINIMAL)) throw new Error("build/bench/minimal-lambda/index.mjs is missing: npm run build:bench");
}

export interface ColdStart {
  runs: number;
  nodeMs: number;
  minimalMs: number;
  crdshiftMs: number;
  /** crdshift's wall time over the minimal handler's, both whole processes. */
  ratio: number;
  overMinimalMs: number;
}

/**
 * Wall time of a fresh `node` importing a bundle and answering one function URL event:
 * crdshift's Lambda bundle, the minimal handler, and `node -e 0`, interleaved; medians.
 */
export function benchColdStart(runs = 25): ColdStart {
  missing();
  const once = (args: string[], bundle?: string) => {
    const start = performance.now();
    const out = spawnSync(process.execPath, args, {
      env: { PATH: process.env.PATH ?? "", ...ENV },
      input: EVENT_LINE,
      encoding: "utf8",
      stdio: ["pipe", "ignore", "ignore", "pipe"],
    });
    const ms = performance.now() - start;
    if (bundle) answered(bundle, String(out.output[3] ?? ""));
    return ms;
  };
  const node: number[] = [];
  const minimal: number[] = [];
  const crdshift: number[] = [];
  for (let i = 0; i < runs + 2; i++) {
    const n = once(["-e", "0"]);
    const m = once([HOST, MINIMAL], MINIMAL);
    const c = once([HOST, CRDSHIFT], CRDSHIFT);
    if (i >= 2) (node.push(n), minimal.push(m), crdshift.push(c)); // the first runs fill the page cache
  }
  const minimalMs = median(minimal);
  const crdshiftMs = median(crdshift);
  return {
    runs,
    nodeMs: median(node),
    minimalMs,
    crdshiftMs,
    ratio: crdshiftMs / minimalMs,
    overMinimalMs: crdshiftMs - minimalMs,
  };
}

export interface ColdInstructions {
  minimal: number;
  crdshift: number;
  ratio: number;
}

/** The same two cold starts counted in instructions: each once, as the count repeats exactly. */
export function coldStartInstructionJobs(): {
  jobs: Array<() => Promise<Counted>>;
  result: (counts: Counted[]) => ColdInstructions;
} {
  missing();
  const job = (bundle: string) => async () => {
    const counted = await countInstructions([HOST, bundle], { input: EVENT_LINE, env: ENV });
    answered(bundle, counted.fd3);
    return counted;
  };
  return {
    jobs: [job(CRDSHIFT), job(MINIMAL)],
    result: ([crdshift, minimal]) => ({
      crdshift: crdshift!.instructions,
      minimal: minimal!.instructions,
      ratio: crdshift!.instructions / minimal!.instructions,
    }),
  };
}
