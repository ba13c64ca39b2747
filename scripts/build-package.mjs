// `npm run build`: the package as installed from its tarball, from src/ into dist/:
// - dist/<subpath>.js: ESM, one module per public subpath (package.json `exports`), the code they
//   share in dist/chunks/, dependencies left as imports;
// - dist/types/**/*.d.ts: declarations from tsc, with the `.js` extensions nodenext needs.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "dist");

/** Each public subpath's module, by its name in dist/. */
export const ENTRIES = {
  index: "src/index.ts",
  testing: "src/testing/index.ts",
  node: "src/platforms/node/node.ts",
  workers: "src/platforms/workers/workers.ts",
  lambda: "src/platforms/lambda/lambda.ts",
  "aws-cdk": "src/platforms/aws-cdk/aws-cdk.ts",
  cli: "src/cli/main.ts",
};

rmSync(dist, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ENTRIES,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  // Workers run it too: nothing newer than workerd and Node 20 both have.
  target: "es2022",
  packages: "external",
  outdir: dist,
  chunkNames: "chunks/[name]-[hash]",
  logLevel: "warning",
});

execFileSync(
  process.execPath,
  [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.build.json")],
  { stdio: "inherit" },
);
for (const file of walk(join(dist, "types")))
  if (file.endsWith(".d.ts")) writeFileSync(file, withExtensions(file, readFileSync(file, "utf8")));

/**
 * `./x` becomes `./x.js` or `./x/index.js`, as the declaration it names is found; `.` and `..`
 * (a folder's own face) become `./index.js` and `../index.js`: nodenext resolves no folder.
 */
function withExtensions(file, text) {
  // Specifiers that already end in .js are left alone, the JSDoc examples' among them.
  return text.replace(
    /(\bfrom\s*|\bimport\s*\(\s*)(["'])(\.{1,2}(?:\/[^"']*?)?)(?<!\.js)\2/g,
    (_, before, quote, specifier) => {
      const base = resolve(dirname(file), specifier);
      const target = existsSync(`${base}.d.ts`)
        ? `${specifier}.js`
        : existsSync(join(base, "index.d.ts"))
          ? `${specifier}/index.js`
          : undefined;
      if (!target) throw new Error(`${file}: no declaration for ${specifier}`);
      return `${before}${quote}${target}${quote}`;
    },
  );
}

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}
