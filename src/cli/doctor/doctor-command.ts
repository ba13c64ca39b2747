import type { Registry } from "../../conversion";
import { parseDocuments, readInput, readTextFile, reportFormat, UsageError } from "../io";
import { runDoctor } from "./doctor-checks";
import { formatDoctorJson, formatDoctorText } from "./doctor-report";
import { readStackUrls } from "./stack-outputs";

export const DOCTOR_HELP = `Usage: crdshift doctor -f CRD.yaml [--url URL] [--allow-http] [--offline] [--objects N]
                       [--stack-outputs FILE] [-o text|json]

Checks a CRD as \`kubectl get crd NAME -o yaml\` prints it (status.storedVersions included)
against the registry and the apiserver's rules, then probes the webhook (the CRD's url, or --url)
as the apiserver calls it: for every ordered pair of served versions, reviews of objects
generated from the registry's schemas, each reply held to the apiserver's checks and compared
with the registry's own answer; latency against its 30 s timeout and its trace threshold
(50 ms + 8 ms per object); the TLS certificate against the CRD's caBundle (or, when it is empty,
the system roots) and its days to expiry. Every finding has a severity and a fix.
Exit 1 on any error.

  -f, --file FILE             the CRD (YAML or JSON, a List of CRDs too), or - for standard input
      --url URL               probe this URL instead of the CRD's
      --allow-http            probe a plain http URL (a local server); still an error for the apiserver
      --offline               no probe: the manifest and the registry only
      --objects N             reviews per ordered pair of versions (default 3)
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
  const objects = values.objects === undefined ? undefined : Number(values.objects);
  if (objects !== undefined && (!Number.isSafeInteger(objects) || objects <= 0))
    throw new UsageError("--objects must be a positive whole number");
  const file = values.file as string | undefined;
  const documents = parseDocuments(readInput(file, io.stdin), file === "-" ? "stdin" : (file ?? ""));
  const outputsFile = values["stack-outputs"];
  const stackUrls = typeof outputsFile === "string" ? readStackUrls(readTextFile(outputsFile), outputsFile) : undefined;
  const report = await runDoctor(await registry(), documents, file === "-" ? "stdin" : (file ?? ""), {
    ...(typeof values.url === "string" ? { url: values.url } : {}),
    allowHttp: values["allow-http"] === true,
    offline: values.offline === true,
    ...(objects !== undefined ? { objectsPerPair: objects } : {}),
    ...(stackUrls ? { stackUrls } : {}),
  });
  io.out(format === "json" ? formatDoctorJson(report) : formatDoctorText(report));
  return report.errors > 0 ? 1 : 0;
}
