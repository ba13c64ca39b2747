import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { UsageError } from "./io";
import { loadProject, type Project } from "./load-registry";

/** The files the CLI looks for in the current directory, in this order, when --registry is not given. */
const CONFIG_FILES = [
  "crdshift.config.ts",
  "crdshift.config.mts",
  "crdshift.config.js",
  "crdshift.config.mjs",
] as const;

/**
 * The project the commands work on: the module `--registry FILE` names, else the project's
 * crdshift.config.* in `cwd`, with the CRD files it lists. Never a built-in registry: checking
 * examples instead of the user's kinds would print "ok" about the wrong thing.
 */
export async function findProject(file: string | undefined, cwd: string): Promise<Project> {
  if (file !== undefined) return loadProject(resolve(cwd, file), `--registry ${file}`);
  const config = CONFIG_FILES.find((name) => existsSync(join(cwd, name)));
  if (config !== undefined) return loadProject(join(cwd, config), config);
  throw new UsageError(
    `no registry: found no ${CONFIG_FILES.join(", ")} in ${cwd}. Create crdshift.config.ts exporting your registry ` +
      `(export { registry } from "./src/registry.js"), or name its module with --registry FILE`,
  );
}
