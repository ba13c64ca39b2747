// `npm run tarball [-- npm pack options]`: the package's tarball, from a staging copy whose
// package.json has no scripts. Packed from this folder, the manifest would keep `prepare` (which
// builds dist/ on this repository's own `npm ci`), and npm warns every user of an install script.
// `npm pack` and `npm publish` here are refused (the `prepack` script) so that none ships it.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

if (process.env.npm_lifecycle_event === "prepack") {
  console.error(
    "crdshift: pack with `npm run tarball` (it leaves the build scripts out of the package's package.json)",
  );
  process.exit(1);
}

const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const { scripts: _scripts, devDependencies: _devDependencies, ...packed } = manifest;
const stage = mkdtempSync(join(tmpdir(), "crdshift-pack-"));
try {
  for (const path of [...manifest.files, "README.md", "LICENSE"])
    cpSync(join(root, path), join(stage, path), { recursive: true });
  writeFileSync(join(stage, "package.json"), `${JSON.stringify(packed, null, 2)}\n`);
  // npm's own output (the file name, or --json's report) is this command's.
  execFileSync("npm", ["pack", stage, ...process.argv.slice(2)], { stdio: "inherit" });
} finally {
  rmSync(stage, { recursive: true, force: true });
}
