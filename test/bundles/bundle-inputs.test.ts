import { build } from "esbuild";
import { describe, expect, it } from "vitest";

/**
 * What each deploy bundle is made of, bundled as package.json's build:worker-modules and
 * build:lambda bundle it: the Prometheus sink (and prom-client) is Node's alone.
 */
async function inputs(entry: string, options: Parameters<typeof build>[0]): Promise<string[]> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    outdir: "/tmp/crdshift-bundle-inputs",
    logLevel: "silent",
    ...options,
  });
  return Object.keys(result.metafile!.inputs);
}

const prometheus = (file: string) => file.includes("prom-client") || file.includes("metrics/prometheus");

describe("the deploy bundles", () => {
  it("leave the Prometheus sink out of the Worker", async () => {
    const files = await inputs("examples/entry/worker.ts", {
      splitting: true,
      format: "esm",
      platform: "browser",
      conditions: ["workerd", "worker"],
      target: "es2022",
    });
    expect(files.some((file) => file.startsWith("src/server/"))).toBe(true);
    expect(files.filter(prometheus)).toEqual([]);
  });

  it("leave it out of the Lambda function", async () => {
    const files = await inputs("examples/entry/lambda.ts", {
      platform: "node",
      format: "esm",
      target: "node22",
      external: ["@aws-sdk/*"],
    });
    expect(files.some((file) => file.startsWith("src/server/"))).toBe(true);
    expect(files.filter(prometheus)).toEqual([]);
  });

  it("and Node's serve() has it", async () => {
    const files = await inputs("examples/entry/node.ts", { platform: "node", format: "esm", target: "node20" });
    expect(files.filter(prometheus).length).toBeGreaterThan(0);
  });
});
