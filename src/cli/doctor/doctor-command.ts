import type { Registry } from "../../conversion";
import { parseDocuments, readInput, readTextFile, reportFormat, UsageError } from "../io";
import { runDoctor } from "./doctor-checks";
import { formatDoctorJson, formatDoctorText } from "./doctor-report";
import { readStackUrls } from "./stack-outputs";
import { countStoredObjects } from "./stored-objects";

export const DOCTOR_HELP = `Usage: crdshift doctor -f CRD.yaml [--url URL] [--allow-http] [--offline] [--objects N]
                       [--stored N | --stored-file FILE] [--stack-outputs FILE] [-o text|json]

Checks a CRD as \`kubectl get crd NAME -o yaml\` prints it (status.storedVersions included)
against the registry and the apiserver's rules, then probes the webhook (the CRD's url, or --url)
as the apiserver calls it: for every ordered pair of served versions, reviews of objects
generated from the registry's schemas, each reply held to the apiserver's checks and compared
with the registry's own answer; latency against its 30 s timeout and its trace threshold
(50 ms + 8 ms per object); the TLS certificate against the CRD's caBundle (or, when it is empty,
the system roots) and its days to expiry. With --stored or --stored-file, how long one watch
cache takes to fill (the apiserver converts every stored object into each served version other
than the storage version, one object per call, when it starts or re-lists): timed on the
webhook (from where doctor runs: run it near the cluster) one call at a time (before
Kubernetes 1.37) and 10 at once (1.37 on), with a warning past a minute. Every finding has a severity and a fix.
Exit 1 on any error.

  -f, --file FILE             the CRD (YAML or JSON, a List of CRDs too), or - for standard input
      --url URL               probe this URL instead of the CRD's
      --allow-http            probe a plain http URL (a local server); still an error for the apiserver
      --offline               no probe: the manifest and the registry only
      --objects N             reviews per ordered pair of versions (default 3)
      --stored N              objects of the kind the cluster stores: estimate a watch cache's fill
      --stored-file FILE      the same, counted per kind in kubectl get KIND -A -o yaml|json (a
                              List, or several documents), or - for standard input
      --stack-outputs FILE    the outputs of the CrdshiftWebhook stack (cdk deploy --outputs-file
                              FILE, or aws cloudformation describe-stacks): warns when the CRD's url
                              is not the function URL on the stack's alias
  -o, --output FORMAT         text (default) or json
`;

export const DOCTOR_OPTIONS = {
  file: { type: "string", short: "f" },
  url: { type: "string" },
  "allow-http": { type: "boolean" },
  offline: { type: "boolean" },
  objects: { type: "string" },
  stored: { type: "string" },
  "stored-file": { type: "string" },
  "stack-outputs": { type: "string" },
  output: { type: "string", short: "o" },
} as const;

interface Io {
  out: (text: string) => void;
  stdin: () => string;
}

export async function doctorCommand(
  values: Record<string, unknown>,
  registry: () => Promise<Registry>,
  io: Io,
): Promise<number> {
  const format = reportFormat(values);
  const objects = values.objects === undefined ? undefined : wholeNumber(String(values.objects), "--objects");
  const file = values.file as string | undefined;
  const documents = parseDocuments(readInput(file, io.stdin), file === "-" ? "stdin" : (file ?? ""));
  const stored = storedOption(values, file, io.stdin);
  const outputsFile = values["stack-outputs"];
  const stackUrls = typeof outputsFile === "string" ? readStackUrls(readTextFile(outputsFile), outputsFile) : undefined;
  const report = await runDoctor(await registry(), documents, file === "-" ? "stdin" : (file ?? ""), {
    ...(typeof values.url === "string" ? { url: values.url } : {}),
    allowHttp: values["allow-http"] === true,
    offline: values.offline === true,
    ...(objects !== undefined ? { objectsPerPair: objects } : {}),
    ...(stackUrls ? { stackUrls } : {}),
    ...(stored ? { stored } : {}),
  });
  io.out(format === "json" ? formatDoctorJson(report) : formatDoctorText(report));
  return report.errors > 0 ? 1 : 0;
}

/** `--stored N` or `--stored-file FILE`: what a watch cache holds, for the fill estimate. */
function storedOption(values: Record<string, unknown>, crdFile: string | undefined, stdin: () => string) {
  const count = values.stored;
  const file = values["stored-file"];
  if (count === undefined && file === undefined) return undefined;
  if (count !== undefined && file !== undefined) throw new UsageError("give --stored or --stored-file, not both");
  if (values.offline === true)
    throw new UsageError("--stored and --stored-file time the webhook: they cannot go with --offline");
  if (typeof count === "string") return { count: wholeNumber(count, "--stored") };
  const name = String(file);
  if (name === "-" && crdFile === "-") throw new UsageError("-f and --stored-file cannot both read standard input");
  const shown = name === "-" ? "stdin" : name;
  return { counts: countStoredObjects(parseDocuments(readInput(name, stdin), shown), shown), file: shown };
}

function wholeNumber(text: string, flag: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n <= 0) throw new UsageError(`${flag} must be a positive whole number`);
  return n;
}
