import { CrdReadError } from "../kube/crd";
import { ManifestError } from "../kube/manifests";
import { parse } from "./arguments";
import { COMMANDS, defaultIo, type Io } from "./commands";
import { CrdError } from "./crd-command";
import { findProject } from "./find-registry";
import { HELP } from "./help";
import { UsageError } from "./io";
import { type Project, RegistryLoadError } from "./load-registry";

/**
 * The crdshift command: `argv` without the node and script names; the result is the exit code
 * (0 done, 1 a conversion or check failed, 2 bad usage or input, or no registry found).
 */
export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === "help" || command === "--help" || command === "-h") {
      io.out(HELP.main!);
      return command === undefined ? 2 : 0;
    }
    const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (!run) throw new UsageError(`unknown command ${JSON.stringify(command)}; see crdshift --help`);
    const { values, positionals } = parse(command, rest);
    if (values.help) {
      io.out(HELP[command]!);
      return 0;
    }
    const cwd = io.cwd ?? process.cwd();
    // Loaded once, when a command first asks for it.
    let loaded: Promise<Project> | undefined;
    const project = () => (loaded ??= findProject(values.registry as string | undefined, cwd));
    const registry = async () => (await project()).registry;
    return await run({ values, positionals, registry, project, io, cwd });
  } catch (error) {
    // A registry module that does not load: one line with the fix, never Node's stack trace.
    if (error instanceof RegistryLoadError) {
      io.err(`crdshift ${command}: ${error.message}\n`);
      return 2;
    }
    // A file that holds no usable CRD is bad input, like bad usage.
    if (error instanceof UsageError || error instanceof CrdReadError || error instanceof ManifestError) {
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
