import { CrdReadError, ManifestError } from "../kube/crd";
import { parse } from "./arguments";
import { COMMANDS, defaultIo, type Io } from "./commands";
import { exitQuietlyOnClosedOutput } from "./closed-output";
import { CrdError } from "./crd-command";
import { findProject } from "./find-registry";
import { HELP } from "./help";
import { UsageError } from "./io";
import { type Project, RegistryLoadError } from "./load-registry";
import { terminalText } from "./terminal-text";

/**
 * The crdshift command: `argv` without the node and script names; the result is the exit code
 * (0 done, 1 a conversion or check failed, 2 bad usage or input, or no registry found).
 */
export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
  const [command, ...rest] = argv;
  if (io === defaultIo) exitQuietlyOnClosedOutput();
  // Messages may quote a file or a webhook: one line each, whatever they quote.
  const fail = (code: number, message: string, prefix = "crdshift") => {
    io.err(`${prefix}: ${terminalText(message)}\n`);
    return code;
  };
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
    if (error instanceof RegistryLoadError) return fail(2, error.message, `crdshift ${command}`);
    // A file that holds no usable CRD is bad input, like bad usage.
    if (error instanceof UsageError || error instanceof CrdReadError || error instanceof ManifestError)
      return fail(2, error.message);
    if (error instanceof CrdError) return fail(1, error.message);
    // A backstop, not the way a bad input is reported: each of those has its own message above.
    if (process.env.CRDSHIFT_DEBUG) io.err(`${(error as Error)?.stack ?? String(error)}\n`);
    return fail(
      2,
      `${describe(error)} (unexpected: please report it; CRDSHIFT_DEBUG=1 prints the stack)`,
      `crdshift ${command}`,
    );
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
