import { readdirSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { Miniflare } from "miniflare";
import { besideBench, inRepo } from "./paths";

const BUNDLE = inRepo("build/worker/worker.js");
const ISOLATE = besideBench("workers-isolate.mjs");

export interface Workers {
  bundleBytes: number;
  /** The main module and the chunks it imports statically, gzip-compressed: what every cold start loads. */
  gzipBytes: number;
  /** The chunks only an `import()` reaches (the CloudWatch SDK, shadow mode), gzip-compressed. */
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
    // Every cold start loads the main module and the chunks it imports statically (code it shares
    // with a lazy part); the chunks only an `import()` reaches load when that part is used.
    const chunks = inRepo("build/worker/chunks");
    const eager = staticImports(bundle.toString("utf8"), (name) => readFileSync(`${chunks}/${name}`, "utf8"));
    const gzipOf = (name: string) => gzipSync(readFileSync(`${chunks}/${name}`)).length;
    const names = readdirSync(chunks);
    const gzipBytes = gzipSync(bundle).length + names.filter((n) => eager.has(n)).reduce((s, n) => s + gzipOf(n), 0);
    const lazyGzipBytes = names.filter((n) => !eager.has(n)).reduce((s, n) => s + gzipOf(n), 0);
    return { bundleBytes: bundle.length, gzipBytes, lazyGzipBytes, reviews };
  } finally {
    await mf.dispose();
  }
}

/** The chunk file names `source` imports statically, directly or through other chunks (not `import()`). */
function staticImports(source: string, read: (name: string) => string): Set<string> {
  const found = new Set<string>();
  const pending = [source];
  while (pending.length > 0) {
    for (const [, path] of pending.pop()!.matchAll(/\bimport\s*(?:[\w*{][^"'();]*?from\s*)?["']([^"']+)["']/g)) {
      const name = path!.slice(path!.lastIndexOf("/") + 1);
      if (!found.has(name)) {
        found.add(name);
        pending.push(read(name));
      }
    }
  }
  return found;
}
