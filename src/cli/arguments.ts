import { type ParseArgsConfig, parseArgs } from "node:util";
import { DIFF_OPTIONS } from "./diff";
import { DOCTOR_OPTIONS } from "./doctor";
import { MIGRATE_OPTIONS } from "./migrate";
import { UsageError } from "./io";

const COMMON = { help: { type: "boolean", short: "h" }, registry: { type: "string" } } as const;

/** Each command's options, as node:util's parseArgs takes them. */
const OPTIONS: Record<string, ParseArgsConfig["options"]> = {
  convert: {
    ...COMMON,
    file: { type: "string", short: "f" },
    to: { type: "string" },
    output: { type: "string", short: "o" },
  },
  crd: { ...COMMON, file: { type: "string", short: "f" }, url: { type: "string" } },
  check: {
    ...COMMON,
    runs: { type: "string" },
    seed: { type: "string" },
    crd: { type: "string", multiple: true },
    typecheck: { type: "boolean" },
  },
  init: {
    help: COMMON.help,
    crd: { type: "string", multiple: true },
    url: { type: "string" },
    force: { type: "boolean" },
    crdshift: { type: "string" },
  },
  generate: { help: COMMON.help, crd: { type: "string", multiple: true }, dir: { type: "string" } },
  versions: { ...COMMON },
  golden: { ...COMMON, dir: { type: "string" }, from: { type: "string" }, force: { type: "boolean" } },
  doctor: { ...COMMON, ...DOCTOR_OPTIONS },
  diff: { ...COMMON, ...DIFF_OPTIONS },
  migrate: { ...COMMON, ...MIGRATE_OPTIONS },
};

/** A command's arguments, parsed strictly: an unknown option is a usage error that says where to look. */
export function parse(command: string, args: string[]) {
  try {
    return parseArgs({
      args,
      options: OPTIONS[command]!,
      allowPositionals: command === "versions" || command === "init" || command === "golden" || command === "migrate",
      strict: true,
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}; see crdshift ${command} --help`);
  }
}
