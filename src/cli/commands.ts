import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { type Registry, sortVersions } from "../conversion";
import { checkRegistry } from "./check-command";
import { checkCrdFiles } from "./check-crd";
import { convertDocuments } from "./convert-command";
import { writeConversionStanza } from "./crd-command";
import { diffCommand } from "./diff";
import { doctorCommand } from "./doctor";
import { generateSchemas } from "./generate-command";
import { checkGoldenFolder, recordGolden } from "./golden-command";
import { initProject } from "./init-command";
import { migrateCommand } from "./migrate";
import { formatDocuments, type Output, parseDocuments, positive, readInput, UsageError } from "./io";
import type { Project } from "./load-registry";
import { terminalText } from "./terminal-text";
import { typeCheckFirst } from "./type-check";

export interface Io extends Output {
  stdin: () => string;
  /** Whether stderr is a terminal: progress is then one line redrawn in place. */
  tty?: boolean;
  /** Where crdshift.config.* and --registry FILE are looked for. Default: the process's. */
  cwd?: string;
}

export const defaultIo: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  stdin: () => readFileSync(0, "utf8"),
  tty: process.stderr.isTTY === true,
};

/** What a command is given: its parsed arguments, the registry (loaded when asked for) and its I/O. */
export interface CommandInput {
  values: Record<string, unknown>;
  positionals: string[];
  registry: () => Promise<Registry>;
  /** The registry with the CRD files its module lists (`export const crds`). */
  project: () => Promise<Project>;
  io: Io;
  /** The folder relative paths are read from. */
  cwd: string;
}

/** Each command, run after its arguments are parsed; the result is the exit code. */
export const COMMANDS: Record<string, (input: CommandInput) => Promise<number>> = {
  async versions({ positionals, io }) {
    if (positionals.length === 0)
      throw new UsageError("give the version names to sort, e.g. crdshift versions v1 v1beta1 v2");
    io.out(`${sortVersions(positionals).join("\n")}\n`);
    return 0;
  },

  async convert({ values, registry, io }) {
    if (!values.to) throw new UsageError("--to GROUP/VERSION is required");
    const format = String(values.output ?? "yaml");
    if (format !== "yaml" && format !== "json")
      throw new UsageError(`-o must be yaml or json, got ${JSON.stringify(format)}`);
    const file = values.file as string | undefined;
    const name = file === "-" ? "stdin" : (file ?? "");
    const documents = parseDocuments(readInput(file, io.stdin), name);
    const result = await convertDocuments(await registry(), documents, String(values.to), name, io);
    if (result.errors.length > 0) {
      // Each names its object and quotes the converter's error: one line each.
      for (const error of result.errors) io.err(`crdshift: ${terminalText(error)}\n`);
      return 1;
    }
    io.out(formatDocuments(result.documents, format));
    return 0;
  },

  async crd({ values, registry, io }) {
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
  },

  async init({ values, positionals, io, cwd }) {
    if (positionals.length > 1) throw new UsageError("init takes one folder; see crdshift init --help");
    initProject(
      {
        dir: positionals[0] ?? ".",
        cwd,
        crds: (values.crd as string[] | undefined) ?? [],
        ...(values.url !== undefined ? { url: String(values.url) } : {}),
        force: values.force === true,
        ...(values.crdshift !== undefined ? { crdshift: String(values.crdshift) } : {}),
      },
      io,
    );
    return 0;
  },

  async generate({ values, io, cwd }) {
    const crds = (values.crd as string[] | undefined) ?? [];
    if (crds.length === 0)
      throw new UsageError("--crd FILE is required: the CustomResourceDefinition to generate schemas from");
    generateSchemas({ crds, cwd, ...(values.dir !== undefined ? { dir: String(values.dir) } : {}) }, io);
    return 0;
  },

  async check({ values, project, io, cwd }) {
    const runs = values.runs === undefined ? undefined : positive(String(values.runs), "--runs");
    const seed = values.seed === undefined ? undefined : Number.parseInt(String(values.seed), 10);
    if (seed !== undefined && !Number.isSafeInteger(seed)) throw new UsageError("--seed must be a whole number");
    const options = { ...(runs ? { runs } : {}), ...(seed !== undefined ? { seed } : {}) };
    const given = (values.crd as string[] | undefined) ?? [];
    const { registry: served, crds: listed, crdNames } = await project();
    if (!(await typeCheckFirst(values.typecheck === true, cwd, io))) return 1;
    // --crd FILE replaces the CRDs the project lists: the files to check are the user's choice.
    const crds =
      given.length > 0
        ? given.map((file) => ({ path: resolve(cwd, file), name: file }))
        : listed.map((path, i) => ({ path, name: crdNames[i]! }));
    const read = crds.length > 0 ? await checkCrdFiles(served, crds, options, io) : [];
    if (!read) return 1;
    if (!(await checkRegistry(served, { ...options, crds: read }, io))) return 1;
    return (await checkGoldenFolder(served, cwd, io)) ? 0 : 1;
  },

  async golden({ values, positionals, registry, io, cwd }) {
    if (positionals.length !== 1 || positionals[0] !== "record")
      throw new UsageError("usage: crdshift golden record [--dir DIR] [--from VERSION] [--force]");
    const options = {
      cwd,
      ...(values.dir !== undefined ? { dir: String(values.dir) } : {}),
      ...(values.from !== undefined ? { from: String(values.from) } : {}),
      ...(values.force ? { force: true } : {}),
    };
    return (await recordGolden(await registry(), options, io)) ? 0 : 1;
  },

  doctor: ({ values, registry, io }) => doctorCommand(values, registry, io),
  diff: ({ values, registry, io }) => diffCommand(values, registry, io),
  migrate: ({ values, positionals, registry, io }) => migrateCommand(values, positionals, registry, io),
};
