import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export interface OwnPackage {
  version: string;
  /** Every dependency crdshift names, with its version or range, development ones included. */
  versions: Record<string, string>;
}

/**
 * crdshift's own package.json, found upwards from this module (the CLI runs from a bundle in
 * dist/, from sources in tests): what `crdshift init` pins a new project's dependencies to.
 */
export function ownPackage(from: string = import.meta.url): OwnPackage {
  let dir = dirname(fileURLToPath(from));
  for (;;) {
    const file = join(dir, "package.json");
    if (existsSync(file)) {
      const json = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
      if (json.name === "crdshift") {
        const versions: Record<string, string> = {};
        for (const field of ["peerDependencies", "devDependencies", "dependencies"]) {
          // Exact pins (development, dependencies) win over peer ranges.
          Object.assign(versions, (json[field] as Record<string, string> | undefined) ?? {});
        }
        return { version: String(json.version), versions };
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error("crdshift's package.json was not found above the CLI");
    dir = parent;
  }
}
