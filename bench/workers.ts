import { readdirSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { Miniflare } from "miniflare";
import { besideBench, inRepo } from "./paths";

const BUNDLE = inRepo("build/worker/worker.js");
const ISOLATE = besideBench("workers-isolate.mjs");

export interface Workers {
  bundleBytes: number;
  gzipBytes: number;
  /** The modules only a CloudWatch-configured Worker imports (the SDK), gzip-compressed. */
  lazyGzipBytes: number;
  reviews: Array<{ objects: number; crdshiftMs: number; floorMs: number; ratio: number }>;
}

/**
 * The deployable bundle's size, and CPU per review inside workerd over the floor (timed in the
 * isolate; bench/int64.ts measures the int64 ratio there).
 */
export async function benchWorkers(sizes = [1, 100, 1000]): Promise<Workers> {
  const bundle = readFileSync(BUNDLE);
  const toml = readFileSync(inRepo("wrangler.toml"), "utf8");
  const compatibilityDate = /^compatibility_date = "([^"]+)"/m.exec(toml)![1]!;
  const mf = new Miniflare({ modules: true, scriptPath: ISOLATE, compatibilityDate });
  const ask = async <T>(query: string) => (await (await mf.dispatchFetch(`http://bench/?${query}`)).json()) as T;
  try {
    const reviews = [];
    for (const n of sizes) {
      reviews.push(await ask<{ objects: number; crdshiftMs: number; floorMs: number; ratio: number }>(`n=${n}`));
    }
    const chunks = inRepo("build/worker/chunks");
    const lazyGzipBytes = readdirSync(chunks).reduce(
      (sum, name) => sum + gzipSync(readFileSync(`${chunks}/${name}`)).length,
      0,
    );
    return { bundleBytes: bundle.length, gzipBytes: gzipSync(bundle).length, lazyGzipBytes, reviews };
  } finally {
    await mf.dispose();
  }
}
