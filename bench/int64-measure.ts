import { convertBody } from "./convert-body";
import { type Int64Shape, type Int64Where, int64Body } from "./int64-bodies";
import { median } from "./stats";

export interface Int64Case {
  shape: Int64Shape;
  objects: number;
  where: Exclude<Int64Where, "none">;
}

export interface Int64Row extends Int64Case {
  plainMs: number;
  int64Ms: number;
  /** int64Ms / plainMs: what integers beyond 2^53 cost a review, the target ≤ 1.3. */
  ratio: number;
}

/** The reviews measured: `--quick` takes the first three. */
export const INT64_CASES: Int64Case[] = [
  { shape: "crontab", objects: 1, where: "one" },
  { shape: "crontab", objects: 100, where: "one" },
  { shape: "crontab", objects: 100, where: "every" },
  { shape: "crontab", objects: 1000, where: "one" },
  { shape: "crontab", objects: 1000, where: "every" },
  { shape: "small", objects: 100_000, where: "every" },
];

/** This process's CPU time in milliseconds: other processes move it less than the wall clock. */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Whether this runtime's JSON.parse gives a reviver each number's source text (Node 21+, workerd). */
export function hasSourceTextAccess(): boolean {
  let source: unknown;
  JSON.parse("1", (_key, value, context?: { source?: string }) => {
    source = context?.source;
    return value;
  });
  return source === "1";
}

/**
 * The same review through the engine's `convertBody`, with and without integers beyond 2^53,
 * measured back to back in each round (in turns, which goes first), in one process; the ratio
 * is the median of the rounds' ratios, so that a slower stretch of a loaded machine moves both
 * sides of it. `clock` in milliseconds: Node's CPU time, which other processes move less than
 * the wall clock; workerd has only performance.now, ticking in whole milliseconds there.
 */
export async function measureInt64(
  cases = INT64_CASES,
  rounds = 15,
  clock: () => number = () => performance.now(),
): Promise<Int64Row[]> {
  const rows: Int64Row[] = [];
  for (const c of cases) {
    const plain = int64Body(c.shape, c.objects, "none");
    const big = int64Body(c.shape, c.objects, c.where);
    const reply = await convertBody(big);
    if (!reply.includes(":9223372036854775807")) throw new Error(`int64 lost: ${reply.slice(0, 300)}`);
    // Each sample about 10,000 CronTabs' worth of work (a small object is about a fifth of one).
    const units = c.shape === "small" ? c.objects / 5 : c.objects;
    const reps = Math.max(1, Math.round(10_000 / units));
    const time = async (body: string) => {
      const t = clock();
      for (let k = 0; k < reps; k++) await convertBody(body);
      return (clock() - t) / reps;
    };
    const plainTimes: number[] = [];
    const int64Times: number[] = [];
    const ratios: number[] = [];
    for (let r = 0; r < rounds + 2; r++) {
      let p: number;
      let b: number;
      if (r % 2 === 0) {
        p = await time(plain);
        b = await time(big);
      } else {
        b = await time(big);
        p = await time(plain);
      }
      if (r < 2) continue; // the first rounds warm up the JIT
      plainTimes.push(p);
      int64Times.push(b);
      ratios.push(b / p);
    }
    rows.push({ ...c, plainMs: median(plainTimes), int64Ms: median(int64Times), ratio: median(ratios) });
  }
  return rows;
}
