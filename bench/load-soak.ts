import { type PostsAnswered, postWithAutocannon } from "./autocannon-posts";
import { CRDSHIFT_SERVER, withServers } from "./http";
import { freePort } from "./load-targets";
import { reviewBody } from "./objects";
import { MiB, residentBytes } from "./process-memory";

/** Growth of resident memory from after warm-up to the end that still counts as flat. */
const GROWTH_BOUND_MIB = 32;

export interface Soak {
  seconds: number;
  connections: number;
  rows: Array<PostsAnswered & { objects: number; rssMaxMiB: number }>;
  rss: { beforeMiB: number; afterMiB: number; peakMiB: number };
  errors: number;
  ok: boolean;
}

/**
 * `npm run load -- --soak`: not the apiserver's pattern but a flood, to see memory stay flat.
 * The Node server under autocannon at 50 connections for `seconds` with single-object, then
 * 100-object reviews; its resident memory after warm-up, sampled during, and after. Not ok if
 * any request failed or memory grew by more than the bound.
 */
export async function soak(seconds: number, say: (line: string) => void): Promise<Soak> {
  const connections = 50;
  return withServers([{ ...CRDSHIFT_SERVER, port: await freePort() }], async ([server]) => {
    const { port, path, pid } = server!;
    const drive = (body: string, seconds: number) =>
      postWithAutocannon(`http://127.0.0.1:${port}${path}`, body, connections, seconds);
    const rss = () => residentBytes(pid!).now / MiB;
    say(`soak: ${seconds} s per review size, ${connections} connections, autocannon, server pid ${pid}`);
    await drive(reviewBody(1), 3); // warm up the JIT before the first memory reading
    await drive(reviewBody(100), 3);
    const beforeMiB = rss();
    const rows: Soak["rows"] = [];
    for (const objects of [1, 100]) {
      const samples: number[] = [];
      const timer = setInterval(() => samples.push(rss()), 1000);
      const r = await drive(reviewBody(objects), seconds);
      clearInterval(timer);
      rows.push({ objects, ...r, rssMaxMiB: Math.max(...samples) });
      say(
        `${String(objects).padStart(3)} object(s)/review: ${r.requests} reviews, ${r.rps.toFixed(0)} req/s ` +
          `(${(r.rps * objects).toFixed(0)} objects/s), p50 ${r.p50} ms, p99 ${r.p99} ms, errors ${r.errors}, ` +
          `RSS max ${Math.max(...samples).toFixed(0)} MiB`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 2000)); // let the last replies drain
    const afterMiB = rss();
    const peakMiB = residentBytes(pid!).peak / MiB;
    const errors = rows.reduce((sum, row) => sum + row.errors, 0);
    const growth = afterMiB - beforeMiB;
    const flat = growth <= GROWTH_BOUND_MIB;
    say(
      `RSS after warm-up ${beforeMiB.toFixed(0)} MiB, after the run ${afterMiB.toFixed(0)} MiB ` +
        `(growth ${growth.toFixed(0)} MiB, bound ${GROWTH_BOUND_MIB}) ${flat ? "ok" : "GROWING"}; peak ${peakMiB.toFixed(0)} MiB`,
    );
    return { seconds, connections, rows, rss: { beforeMiB, afterMiB, peakMiB }, errors, ok: errors === 0 && flat };
  });
}
