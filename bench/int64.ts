import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { Miniflare } from "miniflare";
import { lambdaRuntimeNode } from "../test/bundles/lambda-runtime-node";
import { cpuMs, hasSourceTextAccess, INT64_CASES, type Int64Row, measureInt64 } from "./int64-measure";
import { besideBench, inRepo } from "./paths";
import { count, ms, type Row, times, us } from "./report";

const CHILD = besideBench("int64-child.mjs");
const ISOLATE = besideBench("int64-isolate.mjs");

/** One runtime's int64 figures. */
export interface Int64Run {
  runtime: string;
  /** JSON.parse's source text access (Node 21+, workerd): where the target applies. */
  sourceTextAccess: boolean;
  rows: Int64Row[];
}

/** The target: a review with integers beyond 2^53 costs at most this times the same review without. */
export const INT64_TARGET = 1.3;

/**
 * What integers beyond 2^53 cost a review through convertBody, on each runtime crdshift is
 * deployed on: this Node, the Lambda runtime's Node (22) in a child process, and workerd (timed
 * in the isolate). `note` hears of a runtime that could not be measured.
 */
export async function benchInt64(quick = false, note: (line: string) => void = () => {}): Promise<Int64Run[]> {
  const cases = quick ? INT64_CASES.slice(0, 3) : INT64_CASES;
  const rounds = quick ? 5 : 15;
  const runs: Int64Run[] = [
    {
      runtime: `Node ${process.version}`,
      sourceTextAccess: hasSourceTextAccess(),
      rows: await measureInt64(cases, rounds, cpuMs),
    },
  ];
  let lambdaNode: string | undefined;
  try {
    lambdaNode = lambdaRuntimeNode();
  } catch (error) {
    note(`no Lambda runtime node: ${(error as Error).message.slice(0, 200)}`);
  }
  if (lambdaNode) {
    const child = spawnSync(lambdaNode, [CHILD, ...(quick ? ["quick"] : [])], { encoding: "utf8", maxBuffer: 1 << 24 });
    if (child.status !== 0) throw new Error(`int64 bench on the Lambda runtime's Node failed: ${child.stderr}`);
    runs.push(JSON.parse(child.stdout) as Int64Run);
  }
  const toml = readFileSync(inRepo("wrangler.toml"), "utf8");
  const compatibilityDate = /^compatibility_date = "([^"]+)"/m.exec(toml)![1]!;
  const mf = new Miniflare({ modules: true, scriptPath: ISOLATE, compatibilityDate });
  try {
    const reply = await mf.dispatchFetch(`http://bench/${quick ? "?quick" : ""}`);
    runs.push((await reply.json()) as Int64Run);
  } finally {
    await mf.dispose();
  }
  return runs;
}

/** The bench's table rows: the target beside each figure where source text access is there. */
export function int64Rows(runs: Int64Run[]): Row[] {
  const rows: Row[] = [];
  for (const run of runs) {
    for (const r of run.rows) {
      const objects = `${count(r.objects)} ${r.shape === "small" ? "small object" : "CronTab"}${r.objects === 1 ? "" : "s"}`;
      const where = r.objects === 1 ? "" : r.where === "one" ? ", in the first" : ", in every one";
      const cost = r.int64Ms < 1 ? us(r.int64Ms * 1000) : ms(r.int64Ms, r.int64Ms < 10 ? 2 : 0);
      rows.push({
        measure: `int64: ${objects}${where}, with / without integers beyond 2^53, ${run.runtime}`,
        figure: `${times(r.ratio)} (${cost})`,
        target: run.sourceTextAccess ? `≤ ${INT64_TARGET}×` : "",
        ...(run.sourceTextAccess ? { ok: r.ratio <= INT64_TARGET } : {}),
      });
    }
  }
  return rows;
}
