/**
 * The files of a new conversion webhook project, besides the kinds (codegen/kind-files.ts):
 * written against crdshift's public modules only (crdshift, crdshift/testing, crdshift/node,
 * crdshift/workers, crdshift/lambda, crdshift/aws-cdk), as a user would write them.
 */
interface ScaffoldKind {
  /** The kind file's export, e.g. `httpRoute`. */
  constant: string;
  /** `<plural>.<group>`: src/kinds/<base>.ts. */
  base: string;
  label: string;
  versions: string[];
  todos: string[];
}

export interface ScaffoldInput {
  /** The npm package name. */
  name: string;
  /** The crdshift dependency, e.g. `^0.1.0` or `file:../crdshift-0.1.0.tgz`. */
  crdshift: string;
  /** Versions to pin, by package name (crdshift's own). */
  versions: Record<string, string>;
  kinds: ScaffoldKind[];
  /** The CRD files, relative to the project: `crds/httproutes.yaml`. */
  crdFiles: string[];
  /** The webhook URL written into the CRDs, if one was given. */
  url?: string;
}

/** Fallbacks for a crdshift whose package.json does not name a tool (it names them all today). */
const TOOLS: Record<string, string> = {
  "@types/node": "20.19.25",
  "aws-cdk": "2.1148.1",
  "aws-cdk-lib": "2.276.0",
  constructs: "10.8.1",
  esbuild: "0.28.2",
  typescript: "5.9.3",
  vitest: "4.1.12",
  wrangler: "4.86.0",
  zod: "4.6.7",
};

/** Workers' compatibility date, the one crdshift is tested with. */
const COMPATIBILITY_DATE = "2026-04-20";

export function scaffoldFiles(input: ScaffoldInput): Map<string, string> {
  const files = new Map<string, string>();
  files.set("package.json", packageJson(input));
  files.set("tsconfig.json", TSCONFIG);
  files.set(".gitignore", "node_modules/\ndist/\ncdk.out/\n.wrangler/\n.dev.vars\n");
  files.set("crdshift.config.ts", configSource(input.crdFiles));
  files.set("src/registry.ts", registrySource(input.kinds));
  files.set("src/server.ts", SERVER);
  files.set("src/worker.ts", WORKER);
  files.set("src/lambda.ts", LAMBDA);
  files.set("src/cdk.ts", cdkSource(input.name));
  files.set(
    "wrangler.toml",
    `name = ${JSON.stringify(input.name)}\nmain = "src/worker.ts"\ncompatibility_date = "${COMPATIBILITY_DATE}"\nminify = true\nworkers_dev = true\npreview_urls = false\n\n[vars]\n# Under the apiserver's fixed 30 s timeout for conversion webhooks.\nCRDSHIFT_BUDGET_MS = "25000"\n`,
  );
  files.set("test/kinds.test.ts", testSource(input));
  files.set("README.md", readme(input));
  return files;
}

function pin(input: ScaffoldInput, name: string): string {
  return input.versions[name] ?? TOOLS[name]!;
}

function packageJson(input: ScaffoldInput): string {
  const crds = input.crdFiles.map((file) => `--crd ${file}`).join(" ");
  const json = {
    name: input.name,
    private: true,
    type: "module",
    scripts: {
      // The heap V8 may grow before it must collect, sized for the default in-flight cap
      // (docs/platforms.md: Node); without it, Node sizes the heap from the machine.
      start: "npm run build:server --silent && node --max-old-space-size=320 dist/server.js",
      // The type checker first: a converter that assigns a string to a number fails here, by name.
      test: "tsc --noEmit && vitest run",
      check: `crdshift check ${crds}`,
      generate: `crdshift generate ${crds}`,
      typecheck: "tsc --noEmit",
      "build:server":
        "esbuild src/server.ts --bundle --platform=node --target=node20 --format=esm --packages=external --outfile=dist/server.js --log-level=warning",
      "build:worker": "wrangler deploy --dry-run --outdir dist/worker",
      "dev:worker": "wrangler dev --ip 127.0.0.1",
      "deploy:cloudflare": "wrangler deploy",
      "build:lambda":
        "esbuild src/lambda.ts --bundle --platform=node --target=node22 --format=esm --minify --external:@aws-sdk/* --outfile=dist/lambda/index.mjs --log-level=warning",
      "synth:aws":
        'npm run build:lambda --silent && esbuild src/cdk.ts --bundle --platform=node --target=node20 --format=esm --packages=external --outfile=dist/cdk.mjs --log-level=warning && cdk synth --app "node dist/cdk.mjs" --quiet',
      "deploy:aws": "npm run synth:aws --silent && cdk deploy --app cdk.out",
    },
    dependencies: { crdshift: input.crdshift, zod: pin(input, "zod") },
    devDependencies: Object.fromEntries(
      ["@types/node", "aws-cdk", "aws-cdk-lib", "constructs", "esbuild", "typescript", "vitest", "wrangler"].map(
        (name) => [name, pin(input, name)],
      ),
    ),
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}

/** The project's compiler options: tsc --init's strictness, for Node's ESM (the bundlers read the same sources). */
export const PROJECT_COMPILER_OPTIONS = {
  target: "es2022",
  module: "nodenext",
  lib: ["es2022"],
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  skipLibCheck: true,
  noEmit: true,
} as const;

const TSCONFIG = `${JSON.stringify({ compilerOptions: PROJECT_COMPILER_OPTIONS, include: ["src", "test", "crdshift.config.ts"] }, null, 2)}\n`;

function configSource(crdFiles: string[]): string {
  return `// Where the crdshift command finds this project's registry (crdshift check, crd, convert),
// and the CRDs \`crdshift check\` checks it against when no --crd is given.
export { registry } from "./src/registry.js";
export const crds = [${crdFiles.map((file) => JSON.stringify(file)).join(", ")}];
`;
}

function registrySource(kinds: ScaffoldKind[]): string {
  const imports = kinds.map((kind) => `import { ${kind.constant} } from "./kinds/${kind.base}.js";`).join("\n");
  return `import { createRegistry } from "crdshift";
${imports}

/** Every kind this webhook converts; one URL serves them all. */
export const registry = createRegistry([${kinds.map((kind) => kind.constant).join(", ")}]);
`;
}

const SERVER = `import { serve } from "crdshift/node";
import { registry } from "./registry.js";

// npm start: the webhook on http://127.0.0.1:8787/convert (PORT, HOST and CRDSHIFT_* from the environment).
serve(registry);
`;

const WORKER = `import { createWorker } from "crdshift/workers";
import { registry } from "./registry.js";

// Cloudflare Workers (wrangler.toml): npm run dev:worker, npm run deploy:cloudflare.
export default createWorker(registry);
`;

const LAMBDA = `import { createHandler } from "crdshift/lambda";
import { registry } from "./registry.js";

// AWS Lambda behind a function URL (src/cdk.ts): npm run deploy:aws.
export const handler = createHandler(registry);
`;

function cdkSource(name: string): string {
  const stack = `${name.replace(/(^|[^A-Za-z0-9])([A-Za-z0-9])/g, (_, __, c: string) => c.toUpperCase()).replace(/[^A-Za-z0-9]/g, "")}Webhook`;
  return `import { App, Stack } from "aws-cdk-lib";
import { CrdshiftWebhook } from "crdshift/aws-cdk";

// npm run synth:aws bundles src/lambda.ts into dist/lambda first; npm run deploy:aws deploys it
// (give the path token: -- --parameters PathToken=TOKEN; a NoEcho parameter).
const app = new App();
const stack = new Stack(app, ${JSON.stringify(/^[A-Za-z]/.test(stack) ? stack : `Crd${stack}`)});
new CrdshiftWebhook(stack, "Webhook", { bundleDir: "dist/lambda" });
`;
}

function testSource(input: ScaffoldInput): string {
  const kinds = input.kinds
    .map((kind) => `import { ${kind.constant} } from "../src/kinds/${kind.base}.js";`)
    .join("\n");
  const list = input.kinds.map((kind) => kind.constant).join(", ");
  const crds = input.crdFiles.map((file) => `  ${JSON.stringify(file)},`).join("\n");
  return `import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { assertGolden, assertMatchesCrd, assertRoundTrips, readCrds } from "crdshift/testing";
import { describe, it } from "vitest";
import { registry } from "../src/registry.js";
${kinds}

const kinds = [${list}];
const crds = [
${crds}
];

const crdText = (file: string) => readFileSync(new URL(\`../\${file}\`, import.meta.url), "utf8");

describe("the converters", () => {
  // Objects generated from each version's schema go A -> B -> A for every pair of versions and
  // must come back with every field the CRD keeps (the CRDs also tell objects the apiserver would
  // never store, whose failures prove nothing).
  const known = crds.flatMap((file) => readCrds(crdText(file), file));
  for (const kind of kinds) {
    it(\`round-trips every pair of versions of \${kind.kind}.\${kind.group}\`, () => assertRoundTrips(kind, { crds: known }), 120_000);
  }

  // Objects generated from the CRD itself: each version's schema must accept them, and they must
  // survive A -> B -> A with the apiserver dropping, after each step, the fields a version does
  // not declare. This is what \`npm run check\` runs too.
  for (const file of crds) {
    it(\`fits \${file}\`, () => assertMatchesCrd(kinds, crdText(file)), 120_000);
  }

  // Reviewed examples, golden/<case>/<version>.yaml: one object in several versions, which the
  // converters must reproduce exactly (\`npx crdshift golden record\` writes them for review).
  const golden = fileURLToPath(new URL("../golden", import.meta.url));
  it.skipIf(!existsSync(golden))("converts the golden cases as recorded", () => assertGolden(registry, golden));
});
`;
}

function readme(input: ScaffoldInput): string {
  const todo = input.kinds.filter((kind) => kind.todos.length > 0);
  const kindLines = input.kinds
    .map(
      (kind) =>
        `- \`src/kinds/${kind.base}.ts\`: ${kind.label}, versions ${kind.versions.join(", ")}; ${kind.todos.length === 0 ? (kind.versions.length > 1 ? "ready: its versions declare the same fields" : "one version, nothing to convert yet") : `converters to write: ${kind.todos.join(", ")} (see the TODO comments)`}.`,
    )
    .join("\n");
  const crdStep = input.url
    ? `The CRDs in \`crds/\` already point at ${input.url.replace(/\/convert\/[^/]+$/, "/convert/<token>")}. Apply them once the webhook is deployed there: \`kubectl apply -f crds/\`.`
    : `The CRDs in \`crds/\` are as you gave them. Once the webhook is deployed, write its URL into them (\`https://HOST/convert/TOKEN\`) and apply them:\n\n\`\`\`sh\nnpx crdshift crd -f crds/FILE.yaml --url https://HOST/convert/TOKEN > crds/FILE.webhook.yaml\nkubectl apply -f crds/FILE.webhook.yaml\n\`\`\``;
  return `# ${input.name}

A Kubernetes conversion webhook made with [crdshift](https://www.npmjs.com/package/crdshift) from
your CRDs: ${input.kinds.map((kind) => kind.label).join(", ")}.

${kindLines}

## Next

\`\`\`sh
npm install
npm test          # round trips, and every object the CRD accepts, through the apiserver's pruning
npm run check     # the same from the command line, with what is left to write
npm start         # the webhook on http://127.0.0.1:8787/convert
\`\`\`

\`mapping()\` from crdshift declares renamed fields, enum tables and defaults once, for both
directions. Reviewed examples go in \`golden/<case>/<version>.yaml\` (one object, each version):
\`npm test\` and \`npm run check\` convert them between their versions and name any field that
differs; \`npx crdshift golden record\` writes the missing versions for you to review.
${todo.length > 0 ? `\n${todo.length === 1 ? "One kind has" : `${todo.length} kinds have`} versions that declare different fields: write those converters first (the TODO comments in \`src/kinds/\` name every field), until \`npm run check\` passes.\n` : ""}
Each \`src/kinds/<plural>.<group>.ts\` is yours: \`defineKind\` with the converters between
neighbouring versions. The schemas beside it (\`*.schemas.ts\`) are generated from the CRD: when
the CRD changes, run \`npm run generate\`; it rewrites only the schemas, and \`defineKind\` names
any converter a new version needs. The generated schemas check the JSON type of every field and
are deliberately looser than the CRD (optional fields, unknown fields kept, no enum, pattern or
CEL checks): a webhook stricter than the apiserver fails every read of the objects it refuses.

## Deploy

Pick a long random path token (e.g. \`openssl rand -hex 24\`): the apiserver sends no
credentials, so the URL's last segment is the secret.

- Cloudflare Workers: \`npx wrangler secret put CRDSHIFT_TOKEN\`, then \`npm run deploy:cloudflare\`.
  The URL is \`https://${input.name}.<your-subdomain>.workers.dev/convert/TOKEN\`.
- AWS Lambda (function URL): \`npm run deploy:aws -- --parameters PathToken=TOKEN\`; the stack's
  output \`WebhookUrlPrefix\` is the URL without the token.
- Anywhere Node runs: \`CRDSHIFT_TOKEN=… npm start\` behind HTTPS (set \`HOST\` to listen beyond
  127.0.0.1). \`npm start\` gives Node a heap of 320 MiB (\`--max-old-space-size\`), room for the
  256 MiB that reviews may hold at once (\`CRDSHIFT_MAX_BYTES_IN_FLIGHT\`): raise both together.

${crdStep}
`;
}
