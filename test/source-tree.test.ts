import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/** The layers of docs/architecture.md, held to the code: who may import whom inside src/. */
const root = fileURLToPath(new URL("..", import.meta.url));
const src = join(root, "src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

/** Each file of src/ (relative, `conversion/convert-batch.ts`) with the files of src/ it imports. */
const imports = new Map(
  sourceFiles(src).map((file) => {
    const text = readFileSync(file, "utf8");
    // Unresolved ones are the source code some files write (cli/scaffold.ts), not their imports.
    const targets = [...text.matchAll(/(?:^|\n)(?:import|export)\s[^;]*?\sfrom\s+"(\.[^"]+)"/g)].flatMap((match) => {
      const base = resolve(dirname(file), match[1]!);
      const found = [`${base}.ts`, join(base, "index.ts")].find((candidate) => existsSync(candidate));
      return found ? [relative(src, found)] : [];
    });
    return [relative(src, file), targets] as const;
  }),
);

/**
 * The units of src/: a top-level file, a top-level folder, or one platform. Each may import the
 * units listed, and nothing else; the order is the layering, lowest first.
 */
const MAY_IMPORT: Record<string, string[]> = {
  "outcome.ts": [],
  "log.ts": [],
  json: [],
  kube: ["outcome.ts", "json"],
  conversion: ["outcome.ts", "json", "kube"],
  compare: ["json", "kube"],
  codegen: ["json", "kube", "conversion"],
  metrics: ["outcome.ts", "log.ts", "json", "kube", "conversion"],
  check: ["outcome.ts", "json", "kube", "conversion", "compare"],
  shadow: ["outcome.ts", "log.ts", "json", "kube", "conversion", "compare", "metrics"],
  server: ["outcome.ts", "log.ts", "json", "kube", "conversion", "metrics", "shadow"],
  "platforms/node": ["log.ts", "kube", "conversion", "metrics", "server"],
  "platforms/workers": ["log.ts", "conversion", "server"],
  "platforms/lambda": ["log.ts", "json", "conversion", "metrics", "server"],
  "platforms/aws-cdk": ["platforms/lambda"],
  testing: ["kube", "check"],
  migration: ["kube", "conversion"],
  cli: ["outcome.ts", "log.ts", "json", "kube", "conversion", "compare", "codegen", "check", "server", "migration"],
  "index.ts": ["log.ts", "kube", "conversion", "metrics", "server"],
};

const unitOf = (file: string) => {
  const parts = file.split("/");
  if (parts.length === 1) return parts[0]!;
  return parts[0] === "platforms" ? parts.slice(0, 2).join("/") : parts[0]!;
};

describe("the source tree", () => {
  it("has no import cycles: each module can be read before the ones that use it", () => {
    const cycles: string[] = [];
    const done = new Set<string>();
    const visit = (file: string, path: string[]) => {
      if (path.includes(file)) {
        cycles.push([...path.slice(path.indexOf(file)), file].join(" -> "));
        return;
      }
      if (done.has(file)) return;
      for (const target of imports.get(file) ?? []) visit(target, [...path, file]);
      done.add(file);
    };
    for (const file of imports.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it("names every unit of src/ in the layering, and each imports only the units below it", () => {
    expect([...new Set([...imports.keys()].map(unitOf))].sort()).toEqual(Object.keys(MAY_IMPORT).sort());
    const outside = [...imports].flatMap(([file, targets]) =>
      targets
        .filter((target) => unitOf(target) !== unitOf(file) && !MAY_IMPORT[unitOf(file)]!.includes(unitOf(target)))
        .map((target) => `${file} -> ${target}`),
    );
    expect(outside).toEqual([]);
  });

  it("gives every folder an index.ts face, and other folders import only faces", () => {
    const folders = [...new Set([...imports.keys()].map(dirname))].filter((folder) => folder !== ".");
    expect(folders.filter((folder) => !imports.has(join(folder, "index.ts")))).toEqual([]);
    // Within a folder, and from a subfolder up to its own folder's files, imports are direct.
    const pastFaces = [...imports].flatMap(([file, targets]) =>
      targets
        .filter((target) => {
          if (basename(target) === "index.ts" || dirname(target) === ".") return false;
          return !`${dirname(file)}/`.startsWith(`${dirname(target)}/`);
        })
        .map((target) => `${file} -> ${target}`),
    );
    expect(pastFaces).toEqual([]);
  });

  it("keeps the Worker's reach, and the main entry's, to the packages a Worker runs: hono, zod and ipaddr.js", () => {
    // A face re-exports all of its folder: one file that imports the YAML reader or the AWS SDK
    // behind a face the webhook uses puts it in every bundle (esbuild resolves even an unused import).
    const reach = new Set<string>();
    const visit = (file: string) => {
      if (reach.has(file)) return;
      reach.add(file);
      for (const target of imports.get(file) ?? []) visit(target);
    };
    visit("platforms/workers/workers.ts");
    visit("index.ts");
    const packages = [...reach].flatMap((file) => {
      // Comments and messages name the SDK to say how to pass it; `typeof import()` is a type.
      const code = readFileSync(join(src, file), "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/'(?:[^'\\\n]|\\.)*'/g, "''")
        .replace(/^\s*\/\/.*$/gm, "");
      const found = [
        ...code.matchAll(/(?:^|\n)(?:import|export)\s[^;]*?\sfrom\s+"([^".][^"]*)"/g),
        ...code.matchAll(/(?<!typeof )\bimport\("([^".][^"]*)"\)/g),
      ];
      return found.map((match) => `${file}: ${match[1]}`);
    });
    expect(packages.filter((line) => !/: (hono|zod|ipaddr\.js)(\/|$)/.test(line))).toEqual([]);
  });

  it("has no two source files of one name, faces aside", () => {
    const names = [...imports.keys()].map((file) => basename(file)).filter((name) => name !== "index.ts");
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });
});
