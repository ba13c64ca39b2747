import type { Registry } from "../../conversion";
import { webhookUrlError } from "../crd-command";
import { parseDocuments, readInput, readTextFile, reportFormat, UsageError } from "../io";
import { loadRegistry } from "../load-registry";
import { terminalText } from "../terminal-text";
import { type ConversionSide, registrySide, urlSide, redactUrl } from "../webhook-call";
import { runDiff, UnreachableError } from "./diff-objects";
import { formatDiffJson, formatDiffText } from "./diff-report";
import { readObjects } from "./read-objects";

export const DIFF_HELP = `Usage: crdshift diff -f OBJECTS --against URL|MODULE [--allow-http] [--ca FILE] [-o text|json]

Shadows a converter change before rollout. Every object of OBJECTS (\`kubectl get PLURAL -A -o
json|yaml\`, a multi-document file, or recorded ConversionReview requests) is converted to every
other version of its kind by the registry (the candidate) and by the baseline: the deployed
webhook's URL, called as the apiserver calls it, or another registry module (the previous
release). Results are compared as the apiserver keeps them (metadata restored, but labels and
annotations) and reported per object and version: same, different (the JSON paths, with both
values), or failed on one side (with its message). Exit 1 on any difference or one-sided failure.

  -f, --file FILE          the objects (YAML or JSON), or - for standard input
      --against URL|MODULE the deployed webhook's https URL, or a module exporting \`registry\`
      --allow-http         allow a plain http URL (a local server)
      --ca FILE            PEM CA certificate(s) to trust for the URL, as a CRD's caBundle
                           (instead of the system roots)
  -o, --output FORMAT      text (default) or json
`;

export const DIFF_OPTIONS = {
  file: { type: "string", short: "f" },
  against: { type: "string" },
  "allow-http": { type: "boolean" },
  ca: { type: "string" },
  output: { type: "string", short: "o" },
} as const;

interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  stdin: () => string;
}

export async function diffCommand(
  values: Record<string, unknown>,
  registry: () => Promise<Registry>,
  io: Io,
): Promise<number> {
  const format = reportFormat(values);
  const against = values.against;
  if (typeof against !== "string")
    throw new UsageError(
      "--against URL|MODULE is required: the deployed webhook's URL, or the previous registry module",
    );
  const file = values.file as string | undefined;
  const name = file === "-" ? "stdin" : (file ?? "");
  const documents = parseDocuments(readInput(file, io.stdin), name);
  const candidateRegistry = await registry();
  const candidate = registrySide(
    values.registry ? `registry ${String(values.registry)}` : "registry",
    candidateRegistry,
  );
  let baseline: ConversionSide;
  let baselineRegistry: Registry | undefined;
  if (/^https?:\/\//i.test(against)) {
    const invalid = webhookUrlError(against);
    const http = /^http:/i.test(against);
    if (invalid && !(http && values["allow-http"] === true)) {
      throw new UsageError(`--against: ${invalid}${http ? "; add --allow-http to call a local server" : ""}`);
    }
    baseline = urlSide(redactUrl(against), against, {
      ...(typeof values.ca === "string" ? { ca: readTextFile(values.ca, `--ca ${values.ca}`) } : {}),
    });
  } else {
    baselineRegistry = await loadRegistry(against, `--against ${against}`);
    baseline = registrySide(`registry ${against}`, baselineRegistry);
  }
  const { objects, skipped } = readObjects(documents, candidateRegistry);
  if (objects.length === 0)
    throw new UsageError(
      `${name}: no object of a kind the registry serves${skipped.length ? ` (skipped ${skipped.length})` : ""}`,
    );
  const versions = (group: string, kind: string) => {
    const all = new Set([
      ...(candidateRegistry.lookup(group, kind)?.versions.keys() ?? []),
      ...(baselineRegistry?.lookup(group, kind)?.versions.keys() ?? []),
    ]);
    return [...all];
  };
  try {
    const report = await runDiff(objects, skipped, { candidate, baseline, versions });
    io.out(format === "json" ? formatDiffJson(report) : formatDiffText(report));
    return report.changed > 0 ? 1 : 0;
  } catch (error) {
    if (!(error instanceof UnreachableError)) throw error;
    io.err(`crdshift diff: the baseline could not be called, nothing was compared: ${terminalText(error.message)}\n`);
    return 1;
  } finally {
    baseline.close();
    candidate.close();
  }
}
