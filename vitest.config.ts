import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import ts from "typescript";
import { defineConfig } from "vitest/config";

/** Test token for the Workers project; test/workers/worker.test.ts sends the same string. */
const WORKER_TOKEN = "workers-test-token-0123456789";

// crdshift's public subpaths resolve to its sources here, by tsconfig.json's table (see there).
const paths = ts.readConfigFile(fileURLToPath(new URL("tsconfig.json", import.meta.url)), ts.sys.readFile).config
  .compilerOptions.paths as Record<string, [string]>;
const alias = Object.entries(paths).map(([name, [file]]) => ({
  find: new RegExp(`^${name}$`),
  replacement: fileURLToPath(new URL(file, import.meta.url)),
}));

/**
 * `npm run test:unit` (CRDSHIFT_TESTS=unit): the node project without the files that need a build
 * or take the longest, for a quick loop while changing src/; its property tests run a share of
 * their cases (test/property-runs.ts). `npm test` runs them all, each in full.
 */
const UNIT = process.env.CRDSHIFT_TESTS === "unit";
const UNIT_LEAVES_OUT = UNIT
  ? [
      "test/bundles/**", // the built bundles in build/ (npm run build:examples)
      "test/cli/**", // the CLI: a process through dist/, registries bundled by esbuild, doctor's probes
      "test/platforms/aws-cdk/**", // CDK synthesis
      "test/codegen/typecheck.test.ts", // the TypeScript compiler over generated projects
      "test/json/lambda-runtime-json.test.ts", // a child Node 22, fetched from the npm registry once
      "test/platforms/node/**", // the Node server over real TCP sockets
      "test/shadow/live-replies.test.ts", // every hostile candidate against every review case, twice
      "test/migration/**", // a stand-in apiserver over TLS and the Node server, a process each
    ]
  : [];

/**
 * In unit mode the node project's files share their modules within a worker (`isolate: false`):
 * zod, fast-check and src/ are imported once per worker, not once per file. Full zod is loaded
 * first (test/zod-loaded.ts) so that its message locale, which it installs globally, is there
 * for every file whatever the order. These files need modules or globals of their own and run
 * isolated, as every file does under `npm test`.
 */
const UNIT_OWN_MODULES = [
  "test/conversion/internal-error.test.ts", // vi.mock of a src/ module
  "test/conversion/issue-text.test.ts", // zod/mini's messages with no locale installed
  "test/platforms/lambda/function-url.test.ts", // installs crdshift's Response as the global one
];

/** Timeouts and environment every node-side project shares. */
const NODE_TEST = {
  // Generous for a loaded 2-core machine: processes, bundles and CDK synthesis take
  // seconds there, tens of them at worst. No test relies on these to pass.
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // The SDK warns once per process that its 2027 releases will need Node 22 (CI runs 20).
  env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
};

export default defineConfig({
  test: {
    // Vitest leaves one core free by default, which on 2 cores is one worker: the quick loop
    // takes both. npm test keeps the default, its process tests' headroom on a loaded machine.
    ...(UNIT ? { maxWorkers: Math.max(2, availableParallelism() - 1) } : {}),
    projects: [
      {
        resolve: { alias },
        test: {
          name: "node",
          include: ["test/**/*.test.ts"],
          exclude: ["test/workers/**", "test/e2e/**", ...UNIT_LEAVES_OUT, ...(UNIT ? UNIT_OWN_MODULES : [])],
          ...(UNIT ? { isolate: false, setupFiles: ["test/zod-loaded.ts"] } : {}),
          ...NODE_TEST,
        },
      },
      ...(UNIT
        ? [{ resolve: { alias }, test: { name: "node-own-modules", include: UNIT_OWN_MODULES, ...NODE_TEST } }]
        : []),
      {
        resolve: { alias },
        // These run inside workerd, the Workers runtime, with the Worker entry and wrangler.toml.
        plugins: [
          cloudflareTest({
            main: "./examples/entry/worker.ts",
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: { bindings: { CRDSHIFT_TOKEN: WORKER_TOKEN, CRDSHIFT_BODY_LIMIT_BYTES: "65536" } },
          }),
        ],
        test: {
          name: "workers",
          include: ["test/workers/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // ipaddr.js is a UMD file; pre-bundled, it loads as ESM inside workerd (wrangler's
          // esbuild does the same for the deployed bundle).
          deps: { optimizer: { ssr: { enabled: true, include: ["ipaddr.js"] } } },
        },
      },
      {
        resolve: { alias },
        // The built Lambda bundle again, and one with a shadow candidate, on the Node major of the
        // runtime it is deployed on (nodejs22.x), fetched from the npm registry once by the global setup.
        test: {
          name: "lambda-runtime",
          include: ["test/bundles/lambda-bundle.test.ts", "test/bundles/lambda-shadow.test.ts"],
          globalSetup: ["test/bundles/lambda-runtime-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
        },
      },
      {
        resolve: { alias },
        // What a user does, end to end, and the real CDK CLI: minutes, not seconds. `npm test`
        // runs them too; `npx vitest run --project node --project workers` leaves them out.
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          testTimeout: 300_000,
          hookTimeout: 600_000,
          env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
        },
      },
    ],
  },
});
