import { existsSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { parseApiVersion } from "../kube";
import { type Registry, sortVersions } from "../conversion";
import {
  checkGolden,
  convertGolden,
  formatMismatch,
  goldenDifference,
  goldenFailure,
  goldenPairs,
  readGoldenCases,
} from "../check";
import { formatDocuments, type Output, UsageError } from "./io";

/** Where golden cases live unless --dir says otherwise (src/check/golden.ts describes them). */
const GOLDEN_DIR = "golden";

/**
 * The golden cases under `cwd`'s golden folder, for `crdshift check`: true when there are none,
 * or every one converts as recorded.
 */
export async function checkGoldenFolder(registry: Registry, cwd: string, io: Output): Promise<boolean> {
  const dir = join(cwd, GOLDEN_DIR);
  if (!existsSync(dir)) return true;
  const report = await checkGolden(registry, dir);
  if (report.mismatches.length > 0) {
    io.err(`\ncrdshift check: FAILED: golden conversions\n${report.mismatches.map(formatMismatch).join("\n")}\n`);
    return false;
  }
  io.out(`ok: ${report.cases} golden case(s), ${report.pairs} conversion(s) as recorded in ${GOLDEN_DIR}/\n`);
  for (const { path, count } of report.emptyIsAbsent)
    io.out(`  accepted ${count} time(s) under emptyIsAbsent: ${path} empty on one side, absent on the other\n`);
  // A case of one version compares nothing: said, so that an ok does not read as more than it is.
  const single = readGoldenCases(dir).filter((one) => goldenPairs(one).length === 0);
  if (single.length > 0)
    io.out(
      `  ${single.length} of them hold one version only, nothing compared (${single.map((one) => one.name).join(", ")}): ` +
        "`crdshift golden record` writes the others for review\n",
    );
  return true;
}

/**
 * `crdshift golden record`: writes what the converters make of each case's source file in every
 * other version of its kind, for review: its `.input` file (written as `.expected` files), or its
 * only file, or the one --from names. A file that exists and differs is only replaced with
 * --force; every write and every difference is printed. Exit 1 when differences were left.
 */
export async function recordGolden(
  registry: Registry,
  options: { cwd: string; dir?: string; from?: string; force?: boolean },
  io: Output,
): Promise<boolean> {
  const dir = resolve(options.cwd, options.dir ?? GOLDEN_DIR);
  const cases = readGoldenCases(dir);
  if (cases.length === 0)
    throw new UsageError(`no golden cases under ${relative(options.cwd, dir) || "."}: add <case>/<version>.yaml files`);
  let left = 0;
  for (const { name, files, inputs, expected } of cases) {
    // A case's own input file is its source; --from picks one of the others'.
    const [input, more] = [...inputs.values()];
    const source =
      input ??
      (options.from !== undefined ? files.get(options.from) : files.size === 1 ? [...files.values()][0] : undefined);
    if (source === undefined || more !== undefined) {
      io.err(
        `golden ${name}: ${more !== undefined ? "several .input files: keep one per case" : options.from !== undefined ? `no ${options.from} file` : "several files: say which one is the source with --from VERSION, or name it <version>.input.yaml"}\n`,
      );
      left++;
      continue;
    }
    const apiVersion = parseApiVersion(String(source.object.apiVersion));
    const kind = apiVersion?.group ? registry.lookup(apiVersion.group, String(source.object.kind)) : undefined;
    if (!apiVersion?.group || !kind) throw new UsageError(`golden ${name}: not a kind this registry serves`);
    for (const version of sortVersions([...kind.versions.keys()])) {
      if (version === apiVersion.version) continue;
      // An input's case goes one way: what it becomes is expected, not a source in its turn.
      const existing = input ? expected.get(version) : files.get(version);
      const target = existing?.file ?? join(dir, name, `${version}${input ? ".expected" : ""}.yaml`);
      const shown = relative(options.cwd, target);
      const converted = await convertGolden(registry, source.object, `${apiVersion.group}/${version}`);
      if (!converted.ok) {
        io.err(`golden ${name}: ${apiVersion.version} -> ${version} ${goldenFailure(converted)}\n`);
        left++;
        continue;
      }
      const change = existing
        ? goldenDifference(existing.object, converted.object, { oneWay: input !== undefined })
        : undefined;
      if (existing && change === undefined) {
        io.out(`${shown}: unchanged\n`);
      } else if (existing && !options.force) {
        io.err(`${shown}: differs, not written (add --force to replace it): ${change}\n`);
        left++;
      } else {
        writeFileSync(target, formatDocuments([converted.object], target.endsWith(".json") ? "json" : "yaml"));
        io.out(`${shown}: ${existing ? `replaced: ${change}` : "written"}\n`);
      }
    }
  }
  return left === 0;
}
