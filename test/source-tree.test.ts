import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
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

/** Each file of src/ (relative, `engine/convert.ts`) with the files of src/ it imports. */
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

  it.each([
    ["protocol", ["registry", "engine", "http", "app.ts", "platform", "adapter", "metrics", "cli", "testing"]],
    ["registry", ["engine", "http", "app.ts", "platform", "adapter", "metrics", "cli", "testing"]],
    ["engine", ["http", "app.ts", "platform", "adapter", "metrics", "cli", "testing"]],
    ["http", ["platform", "adapter", "cli", "testing", "shadow"]],
    // The comparison `crdshift diff` and the shadow share: neither's, and the server's without cli/.
    ["compare", ["http", "app.ts", "platform", "adapter", "metrics", "cli", "shadow"]],
    ["shadow", ["app.ts", "platform", "adapter", "cli"]],
  ])("%s/ imports nothing of the floors above it", (layer, above) => {
    const upward = [...imports]
      .filter(([file]) => file.startsWith(`${layer}/`))
      .flatMap(([file, targets]) =>
        targets
          .filter((target) => above.some((floor) => target === floor || target.startsWith(`${floor}/`)))
          .map((target) => `${file} -> ${target}`),
      );
    expect(upward).toEqual([]);
  });
});
