import { readdirSync, readFileSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The package's public names are written in three places: package.json's `exports` (what users
 * get, from dist/), tsconfig.json's `paths` (the same names for this repository's examples and
 * tests, from src/) and the build's entries. They must name the same modules.
 */
const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
const paths = ts.readConfigFile(new URL("../../tsconfig.json", import.meta.url).pathname, ts.sys.readFile).config
  .compilerOptions.paths as Record<string, [string]>;
const build = readFileSync(new URL("../../scripts/build-package.mjs", import.meta.url), "utf8");

describe("the package's exports", () => {
  const subpaths = Object.entries(pkg.exports as Record<string, string | Record<string, string>>).filter(
    ([name]) => name !== "./package.json",
  );

  it("are the subpaths the repository resolves to its sources, each with types first", () => {
    expect(subpaths.map(([name]) => `crdshift${name.slice(1)}`).sort()).toEqual(Object.keys(paths).sort());
    for (const [name, conditions] of subpaths) {
      expect(Object.keys(conditions), name).toEqual(["types", "default"]);
      const source = paths[`crdshift${name.slice(1)}`]![0];
      const { types, default: js } = conditions as Record<string, string>;
      // dist/types mirrors src/; the module is the build entry named after the subpath.
      expect(types, name).toBe(source.replace(/^\.\/src\//, "./dist/types/").replace(/\.ts$/, ".d.ts"));
      const entry = js!.replace(/^\.\/dist\/(.*)\.js$/, "$1");
      expect(build, name).toContain(
        `${/^[\w]+$/.test(entry) ? entry : JSON.stringify(entry)}: ${JSON.stringify(source.slice(2))}`,
      );
    }
  });

  it("ship only dist/ and the command, need zod from the user, and the CDK, the CloudWatch SDK and migrate's cluster client only when used", () => {
    expect(pkg.files).toEqual(["dist", "bin"]);
    expect(Object.keys(pkg.peerDependencies).sort()).toEqual([
      "@aws-sdk/client-cloudwatch",
      "@kubernetes/client-node",
      "aws-cdk-lib",
      "constructs",
      "zod",
    ]);
    expect(Object.keys(pkg.peerDependenciesMeta).sort()).toEqual([
      "@aws-sdk/client-cloudwatch",
      "@kubernetes/client-node",
      "aws-cdk-lib",
      "constructs",
    ]);
    expect(pkg.dependencies).not.toHaveProperty("zod");
    expect(pkg.dependencies).not.toHaveProperty("@kubernetes/client-node");
    expect(pkg.dependencies).toHaveProperty("esbuild"); // the CLI loads TypeScript registries with it
  });
});

describe("examples/", () => {
  it("imports crdshift by its name only, as a user's project would", () => {
    const dir = new URL("../../examples/", import.meta.url);
    const files = readdirSync(dir, { recursive: true })
      .map(String)
      .filter((name) => name.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(5);
    for (const name of files) {
      const imports = [...readFileSync(new URL(name, dir), "utf8").matchAll(/from "([^"]+)"/g)].map((m) => m[1]!);
      expect(
        imports.filter((path) => path.includes("src/")),
        name,
      ).toEqual([]);
      expect(
        imports.filter((path) => path.startsWith("crdshift/") && !(path in paths)),
        name,
      ).toEqual([]);
    }
  });
});
