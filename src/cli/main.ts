import { readFileSync } from "node:fs";
import { type ParseArgsConfig, parseArgs } from "node:util";
import type { Registry } from "../registry";
import { sortVersions } from "../registry/version-order";
import { checkRegistry } from "./check";
import { checkCrdFiles } from "./check-crd";
import { convertDocuments } from "./convert";
import { CrdError, writeConversionStanza } from "./crd";
import { DIFF_HELP, DIFF_OPTIONS, diffCommand } from "./diff/diff-command";
import { DOCTOR_HELP, DOCTOR_OPTIONS, doctorCommand } from "./doctor/doctor-command";
import { findRegistry } from "./find-registry";
import { generateSchemas } from "./generate";
import { initProject } from "./init";
import { formatDocuments, type Output, parseDocuments, readInput, UsageError } from "./io";

const HELP: Record<string, string> = {
  main: `crdshift: CRD conversion webhooks, tools for their authors and operators

Usage: crdshift <command> [options]

Commands:
  init      start a webhook project from your CRDs: schemas generated, converters to fill in
  generate  write a kind's schemas again from its CRD, leaving the converters alone
  convert   convert objects in a YAML or JSON file to another version
  crd       write the conversion webhook stanza into a CRD manifest
  check     prove the registry: every version pair round-trips
  doctor    check a CRD and its live webhook as the apiserver would, before the cluster does
  diff      compare the registry's conversions of real objects with the deployed webhook's
  versions  sort version names by Kubernetes' version priority

The registry is the module --registry FILE names (exporting \`registry\`, or as its default
export), else crdshift.config.ts (or .mts, .js, .mjs) in the current directory.
Every command takes --help. Exit codes: 0 done, 1 a conversion or check failed, 2 bad usage
or input, or no registry found.
`,
  convert: `Usage: crdshift convert -f FILE|- --to GROUP/VERSION [-o yaml|json]

Converts every object of a (multi-document) YAML or JSON file, a List, or a ConversionReview
to GROUP/VERSION with the registry's converters, offline. Objects of kinds the registry does not
serve are passed through unchanged and reported on stderr. If any object fails, nothing is
written and the exit code is 1.

  -f, --file FILE      input file, or - for standard input
      --to GROUP/VERSION
  -o, --output FORMAT  yaml (default) or json
`,
  crd: `Usage: crdshift crd -f CRD.yaml --url https://HOST/PATH

Writes the CRD back on stdout with spec.conversion set to the webhook (strategy Webhook,
conversionReviewVersions [v1, v1beta1], clientConfig.url), in the layout of its apiVersion
(apiextensions.k8s.io/v1 or v1beta1), keeping comments and formatting. Refuses a CRD with a
single version, and one whose versions differ from the registry's.

  -f, --file FILE   the CRD manifest, or - for standard input
      --url URL     https URL of the webhook, with the path token: https://host/convert/<token>
`,
  check: `Usage: crdshift check [--crd FILE...] [--runs N] [--seed N]

With --crd, first holds the registry to each CRD, with objects generated from the CRD's own
openAPIV3Schema: the kind must have exactly the CRD's versions; each version's schema must accept
every object the CRD accepts (whole, and partial as server-side apply sends them), else it names
the version, the field and a shrunk object; and every object must survive A -> B -> A with the
apiserver dropping, after each step, the fields a version does not declare, else it names the
field lost and the fields the two versions do not share.

Then, for every kind and every ordered pair of versions A, B, converts objects generated from A's zod
schema (whole and partial, with labels, annotations and unknown fields) to B and back, and
fails on the first one that does not come back equal, printing it. A converter that refuses an
object (throws) is counted, not failed.

      --crd FILE a CustomResourceDefinition the registry serves (repeat for more)
      --runs N   objects per pair (default 200; 100 per version and pair against a CRD)
      --seed N   replay a run
`,
  doctor: DOCTOR_HELP,
  diff: DIFF_HELP,
  init: `Usage: crdshift init [DIR] --crd FILE [--crd FILE...] [--url URL] [--force] [--crdshift SPEC]

Writes a new conversion webhook project in DIR (default: the current folder), which must be empty
unless --force: per CRD, src/kinds/<plural>.<group>.ts with the converters between neighbouring
versions (copies; a TODO names every field two versions do not share) and, beside it,
<plural>.<group>.schemas.ts with a zod schema per version generated from its openAPIV3Schema;
the registry, a test of every kind against its CRD, entries for Node, Workers and Lambda, the
Workers and CDK configuration, package.json scripts, and the CRDs in crds/.

      --crd FILE       a CustomResourceDefinition (YAML or JSON; repeat for more)
      --url URL        the webhook's https URL with its token: the CRDs get the conversion stanza
      --force          write into a folder that is not empty (files crdshift writes are replaced)
      --crdshift SPEC  the crdshift dependency (default: ^ this version; e.g. file:crdshift.tgz)
`,
  generate: `Usage: crdshift generate --crd FILE [--crd FILE...] [--dir DIR]

Writes <plural>.<group>.schemas.ts again from each CRD's versions, in DIR (default src/kinds),
and never touches the converters in <plural>.<group>.ts beside it (written only for a CRD that
has none yet). Versions the CRD gained or lost are reported.

      --crd FILE   a CustomResourceDefinition (repeat for more)
      --dir DIR    where the kind files are (default src/kinds)
`,
  versions: `Usage: crdshift versions NAME...

Prints the version names in Kubernetes' priority order (GA, then beta, then alpha, larger
numbers first; other names last, alphabetically), as kubectl picks a default version.
`,
};

interface Io extends Output {
  stdin: () => string;
  /** Where crdshift.config.* and --registry FILE are looked for. Default: the process's. */
  cwd?: string;
}

const defaultIo: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  stdin: () => readFileSync(0, "utf8"),
};

const COMMON = { help: { type: "boolean", short: "h" }, registry: { type: "string" } } as const;

export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === "help" || command === "--help" || command === "-h") {
      io.out(HELP.main!);
      return command === undefined ? 2 : 0;
    }
    if (!(command in HELP) || command === "main")
      throw new UsageError(`unknown command ${JSON.stringify(command)}; see crdshift --help`);
    const { values, positionals } = parse(command, rest);
    if (values.help) {
      io.out(HELP[command]!);
      return 0;
    }
    const registry = (): Promise<Registry> =>
      findRegistry(values.registry as string | undefined, io.cwd ?? process.cwd());
    switch (command) {
      case "versions":
        if (positionals.length === 0)
          throw new UsageError("give the version names to sort, e.g. crdshift versions v1 v1beta1 v2");
        io.out(`${sortVersions(positionals).join("\n")}\n`);
        return 0;
      case "convert": {
        if (!values.to) throw new UsageError("--to GROUP/VERSION is required");
        const format = String(values.output ?? "yaml");
        if (format !== "yaml" && format !== "json")
          throw new UsageError(`-o must be yaml or json, got ${JSON.stringify(format)}`);
        const file = values.file as string | undefined;
        const name = file === "-" ? "stdin" : (file ?? "");
        const documents = parseDocuments(readInput(file, io.stdin), name);
        const result = await convertDocuments(await registry(), documents, String(values.to), name, io);
        if (result.errors.length > 0) {
          for (const error of result.errors) io.err(`crdshift: ${error}\n`);
          return 1;
        }
        io.out(formatDocuments(result.documents, format));
        return 0;
      }
      case "crd": {
        if (!values.url) throw new UsageError("--url https://HOST/PATH is required");
        const file = values.file as string | undefined;
        const { text, notes } = writeConversionStanza(
          readInput(file, io.stdin),
          file === "-" ? "stdin" : (file ?? ""),
          await registry(),
          String(values.url),
        );
        io.out(text);
        for (const note of notes) io.err(`crdshift: ${note}\n`);
        return 0;
      }
      case "init":
        if (positionals.length > 1) throw new UsageError("init takes one folder; see crdshift init --help");
        initProject(
          {
            dir: positionals[0] ?? ".",
            cwd: io.cwd ?? process.cwd(),
            crds: (values.crd as string[] | undefined) ?? [],
            ...(values.url !== undefined ? { url: String(values.url) } : {}),
            force: values.force === true,
            ...(values.crdshift !== undefined ? { crdshift: String(values.crdshift) } : {}),
          },
          io,
        );
        return 0;
      case "generate": {
        const crds = (values.crd as string[] | undefined) ?? [];
        if (crds.length === 0)
          throw new UsageError("--crd FILE is required: the CustomResourceDefinition to generate schemas from");
        generateSchemas(
          { crds, cwd: io.cwd ?? process.cwd(), ...(values.dir !== undefined ? { dir: String(values.dir) } : {}) },
          io,
        );
        return 0;
      }
      case "check": {
        const runs = values.runs === undefined ? undefined : positive(String(values.runs), "--runs");
        const seed = values.seed === undefined ? undefined : Number.parseInt(String(values.seed), 10);
        if (seed !== undefined && !Number.isSafeInteger(seed)) throw new UsageError("--seed must be a whole number");
        const options = { ...(runs ? { runs } : {}), ...(seed !== undefined ? { seed } : {}) };
        const crds = (values.crd as string[] | undefined) ?? [];
        const served = await registry();
        if (crds.length > 0 && !(await checkCrdFiles(served, crds, { ...options, cwd: io.cwd ?? process.cwd() }, io)))
          return 1;
        return (await checkRegistry(served, options, io)) ? 0 : 1;
      }
      case "doctor":
        return await doctorCommand(values, registry, io);
      case "diff":
        return await diffCommand(values, registry, io);
    }
    return 2;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`crdshift: ${error.message}\n`);
      return 2;
    }
    if (error instanceof CrdError) {
      io.err(`crdshift: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

const OPTIONS: Record<string, ParseArgsConfig["options"]> = {
  convert: {
    ...COMMON,
    file: { type: "string", short: "f" },
    to: { type: "string" },
    output: { type: "string", short: "o" },
  },
  crd: { ...COMMON, file: { type: "string", short: "f" }, url: { type: "string" } },
  check: { ...COMMON, runs: { type: "string" }, seed: { type: "string" }, crd: { type: "string", multiple: true } },
  init: {
    help: COMMON.help,
    crd: { type: "string", multiple: true },
    url: { type: "string" },
    force: { type: "boolean" },
    crdshift: { type: "string" },
  },
  generate: { help: COMMON.help, crd: { type: "string", multiple: true }, dir: { type: "string" } },
  versions: { ...COMMON },
  doctor: { ...COMMON, ...DOCTOR_OPTIONS },
  diff: { ...COMMON, ...DIFF_OPTIONS },
};

function parse(command: string, args: string[]) {
  try {
    return parseArgs({
      args,
      options: OPTIONS[command]!,
      allowPositionals: command === "versions" || command === "init",
      strict: true,
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}; see crdshift ${command} --help`);
  }
}

function positive(text: string, flag: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n <= 0) throw new UsageError(`${flag} must be a positive whole number`);
  return n;
}
