import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

/** Test token for the Workers project; the same string is in test/workers/token.ts. */
const WORKER_TOKEN = "workers-test-token-0123456789";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "node",
          include: ["test/**/*.test.ts"],
          exclude: ["test/workers/**"],
          // The SDK warns once per process that its 2027 releases will need Node 22 (CI runs 20).
          env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
        },
      },
      {
        // These run inside workerd, the Workers runtime, with the Worker entry and wrangler.toml.
        plugins: [
          cloudflareTest({
            main: "./src/entry/worker.ts",
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: { bindings: { CRDSHIFT_TOKEN: WORKER_TOKEN, CRDSHIFT_BODY_LIMIT_BYTES: "65536" } },
          }),
        ],
        test: {
          name: "workers",
          include: ["test/workers/**/*.test.ts"],
          // ipaddr.js is a UMD file; pre-bundled, it loads as ESM inside workerd (wrangler's
          // esbuild does the same for the deployed bundle).
          deps: { optimizer: { ssr: { enabled: true, include: ["ipaddr.js"] } } },
        },
      },
    ],
  },
});
