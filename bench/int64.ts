import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { Miniflare } from "miniflare";
import { lambdaRuntimeNode } from "../test/bundles/lambda-runtime-node";
import { INT64_CASES, type Int64Row, measureInt64 } from "./int64-measure";
import { besideBench, inRepo } from "./paths";

const CHILD = besideBench("int64-child.mjs");
const ISOLATE = besideBench("int64-isolate.mjs");

/** What integers beyond 2^53 cost a review, on each runtime crdshift is deployed on. */
export interface Int64Figures {
  /** This process's Node. */
  node: { version: string; rows: Int64Row[] };
  /** The Lambda runtime's Node major (22), in a child process. */
  lambdaNode: { version: string; rows: Int64Row[] };
  /** Inside workerd, timed in the isolate. */
  workerd: { rows: Int64Row[] };
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

export async function benchInt64(quick = false): Promise<Int64Figures> {
  const rounds = quick ? 5 : 15;
  const node = { version: process.version, rows: await measureInt64(INT64_CASES, rounds, cpuMs) };
  const child = spawnSync(lambdaRuntimeNode(), [CHILD, ...(quick ? ["quick"] : [])], {
    encoding: "utf8",
    maxBuffer: 1 << 24,
  });
  if (child.status !== 0) throw new Error(`int64 bench on the Lambda runtime's Node failed: ${child.stderr}`);
  const lambda = JSON.parse(child.stdout) as { node: string; rows: Int64Row[] };
  const toml = readFileSync(inRepo("wrangler.toml"), "utf8");
  const compatibilityDate = /^compatibility_date = "([^"]+)"/m.exec(toml)![1]!;
  const mf = new Miniflare({ modules: true, scriptPath: ISOLATE, compatibilityDate });
  try {
    const reply = await mf.dispatchFetch(`http://bench/${quick ? "?quick" : ""}`);
    const workerd = (await reply.json()) as { rows: Int64Row[] };
    return { node, lambdaNode: { version: lambda.node, rows: lambda.rows }, workerd: { rows: workerd.rows } };
  } finally {
    await mf.dispose();
  }
}

/** The target of issue 18: a review with integers beyond 2^53 costs at most this times the same review without. */
export const INT64_TARGET = 1.3;

/** The figures as lines for `npm run bench`: one table per runtime, each ratio beside the target. */
export function int64Lines(figures: Int64Figures): string[] {
  const lines = [
    `\nint64: a review holding integers beyond 2^53 over the same review without them, through convertBody (target <= ${INT64_TARGET}x)`,
  ];
  const table = (title: string, rows: Int64Row[]) => {
    lines.push(`  ${title}`, "  objects          int64 in       without ms    with ms  ratio");
    for (const r of rows) {
      const what = `${String(r.objects).padStart(7)} ${r.shape === "small" ? "small  " : "CronTab"}`;
      const where = r.where === "one" ? "the first" : "every one";
      const verdict = r.ratio <= INT64_TARGET ? "meets target" : "MISSES target";
      lines.push(
        `  ${what}  ${where.padEnd(10)}  ${r.plainMs.toFixed(3).padStart(11)}  ${r.int64Ms.toFixed(3).padStart(9)}  ${r.ratio.toFixed(2)}x  ${verdict}`,
      );
    }
  };
  table(`Node ${figures.node.version} (CPU time)`, figures.node.rows);
  table(`Node ${figures.lambdaNode.version}, the Lambda runtime's (CPU time)`, figures.lambdaNode.rows);
  table("workerd (wall time in the isolate)", figures.workerd.rows);
  return lines;
}
