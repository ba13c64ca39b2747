// `npm run build:bench`: every program under bench/ that a bench script runs, bundled into
// build/bench/<name>.mjs. One list here, so that a new bench program is added in one place.
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const outdir = "build/bench";

/** Programs node runs, on the oldest Node crdshift supports; dependencies stay imports. */
const NODE_PROGRAMS = [
  "index",
  "load",
  "workerd-server",
  "lambda-front",
  "memory-child",
  "bare-server",
  "hono-engine-server",
  "naive-webhook",
  "app-server",
  "int64-child",
  "instructions-child",
  "profile",
  "http-instructions",
  "http-instructions-marker",
  "idioms",
  "blocking",
  "count-engine",
  "shadow",
  "shadow-server",
  "shadow-thread",
  "concurrent-memory",
  "workers-memory",
  "held-memory",
];

/**
 * Workers the bench loads into workerd: each one self-contained ES module, built for the neutral
 * platform because workerd is neither Node (no built-ins to leave as imports) nor a browser.
 */
const ISOLATE_PROGRAMS = ["workers-isolate", "int64-isolate", "shadow-isolate"];

const common = { absWorkingDir: root, bundle: true, format: "esm", logLevel: "warning" };

await Promise.all([
  build({
    ...common,
    entryPoints: NODE_PROGRAMS.map((name) => `bench/${name}.ts`),
    platform: "node",
    target: "node20",
    packages: "external",
    outdir,
    outExtension: { ".js": ".mjs" },
  }),
  ...ISOLATE_PROGRAMS.map((name) =>
    build({
      ...common,
      entryPoints: [`bench/${name}.ts`],
      platform: "neutral",
      mainFields: ["module", "main"],
      // The CloudWatch SDK (a Node package, reached through src/metrics/) is imported only when
      // CRDSHIFT_METRICS=cloudwatch, never in these Workers: left out, as the Worker bundle splits it off.
      external: ["@aws-sdk/*"],
      minify: true,
      outfile: `${outdir}/${name}.mjs`,
    }),
  ),
  // The cold start's baseline: minified for node22 as the Lambda example is (build:lambda), the
  // Node major of the runtime it is deployed on, so the two differ only in what crdshift adds.
  build({
    ...common,
    entryPoints: ["bench/minimal-handler.ts"],
    platform: "node",
    target: "node22",
    minify: true,
    legalComments: "none",
    outfile: `${outdir}/minimal-lambda/index.mjs`,
  }),
]);
