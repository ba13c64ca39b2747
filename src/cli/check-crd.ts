import { resolve } from "node:path";
import { kindLabel } from "../protocol/api-version";
import type { Registry } from "../registry";
import { checkAgainstCrd } from "../testing/crd-check";
import { readCrdFile } from "./crd-files";
import type { Output } from "./io";

/**
 * `crdshift check --crd FILE`: the registry held to each CRD (testing/crd-check.ts), reported
 * per version and pair of versions; false at the first CRD that does not fit.
 */
export async function checkCrdFiles(
  registry: Registry,
  files: string[],
  options: { runs?: number; seed?: number; cwd?: string },
  io: Output,
): Promise<boolean> {
  for (const file of files) {
    for (const crd of readCrdFile(resolve(options.cwd ?? process.cwd(), file), file).crds) {
      io.out(`${kindLabel(crd)} against ${file}\n`);
      const report = await checkAgainstCrd(registry, crd, options);
      for (const version of report.versions)
        io.out(`  ${version.version}  ${version.accepted} objects the CRD accepts, accepted\n`);
      for (const pair of report.pairs) {
        io.out(
          `  ${pair.from} -> ${pair.to} -> ${pair.from}  ${pair.roundTrips} round trips through the apiserver's pruning, ${pair.refused} refused by the converter\n`,
        );
      }
      if (!report.ok) {
        io.err(`\ncrdshift check: FAILED\n${report.failure}\n`);
        return false;
      }
    }
  }
  io.out("\n");
  return true;
}
