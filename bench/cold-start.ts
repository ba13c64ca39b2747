import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { functionUrlEvent } from "../test/bundles/lambda";
import { inRepo } from "./paths";
import { median } from "./stats";

const BUNDLE = inRepo("build/lambda/index.mjs");
// The same host the tests use: a plain node process that imports the bundle, as Lambda does.
const HOST = inRepo("test/bundles/lambda-host.mjs");
const TOKEN = "bench-token-0123456789abcdef";

export interface ColdStart {
  runs: number;
  nodeMs: number;
  lambdaMs: number;
  overNodeMs: number;
}

/**
 * A fresh `node` importing the Lambda bundle and answering one function URL event, minus a
 * fresh `node -e 0`; the two interleaved, medians of `runs` each.
 */
export function benchColdStart(runs = 25): ColdStart {
  if (!existsSync(BUNDLE)) throw new Error("build/lambda/index.mjs is missing: npm run build:lambda");
  const event = JSON.stringify({
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
  });
  const env = { PATH: process.env.PATH ?? "", CRDSHIFT_TOKEN: TOKEN };
  const bare: number[] = [];
  const lambda: number[] = [];
  for (let i = 0; i < runs + 2; i++) {
    let t = performance.now();
    spawnSync(process.execPath, ["-e", "0"], { env });
    const b = performance.now() - t;
    t = performance.now();
    // Results come back on fd 3, as the host writes them (stdout and stderr are the log).
    const out = spawnSync(process.execPath, [HOST, BUNDLE], {
      env,
      input: `${event}\n`,
      encoding: "utf8",
      stdio: ["pipe", "pipe", "pipe", "pipe"],
    });
    const l = performance.now() - t;
    const result = String(out.output[3] ?? "");
    if (!result.includes('\\"status\\":\\"Success\\"'))
      throw new Error(`cold start run failed: ${result}${out.stdout}${out.stderr}`);
    if (i >= 2) (bare.push(b), lambda.push(l));
  }
  const nodeMs = median(bare);
  const lambdaMs = median(lambda);
  return { runs, nodeMs, lambdaMs, overNodeMs: lambdaMs - nodeMs };
}
