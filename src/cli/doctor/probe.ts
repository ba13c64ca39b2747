import type { KindDefinition, Registry } from "../../registry";
import type { ApiserverVerdict } from "../../testing/apiserver";
import { webhookUrlError } from "../crd";
import { compareVerdicts } from "../diff/compare-verdicts";
import { registrySide, type SideResult, urlSide } from "../webhook-call/conversion-side";
import { APISERVER_TIMEOUT_MS, type TlsPeer } from "../webhook-call/post-review";
import { type ReviewRequest, redactUrl, reviewRequest } from "../webhook-call/review-request";
import { readCaBundle } from "./ca-bundle";
import type { CrdConfig } from "./crd-config";
import { error, type Finding, info, warning } from "./finding";
import { latencyFindings } from "./latency";
import { sampleObjects } from "./sample-objects";
import { tlsFindings, trustedBySystemRoots } from "./tls-checks";

export interface ProbeOptions {
  url: string;
  /** The URL came from --url rather than the CRD (whose URL the static checks already judged). */
  fromFlag: boolean;
  allowHttp: boolean;
  objectsPerPair: number;
  seed?: number;
  now: Date;
  timeoutMs?: number;
}

/**
 * Calls the webhook as the apiserver would: for every ordered pair of served versions, reviews
 * of objects generated from the registry's schemas, each reply held to the apiserver's checks
 * and to what the registry itself answers; the latency against the apiserver's limits; the TLS
 * certificate against the trust the CRD gives it.
 */
export async function probe(
  crd: CrdConfig,
  definition: KindDefinition,
  registry: Registry,
  options: ProbeOptions,
): Promise<Finding[]> {
  const shown = redactUrl(options.url);
  const found: Finding[] = [];
  let target: URL;
  try {
    target = new URL(options.url);
  } catch {
    return [
      error(
        "probe-url-invalid",
        `--url ${JSON.stringify(options.url)} is not a URL`,
        "give the webhook's URL: https://HOST/convert/<token>",
      ),
    ];
  }
  const invalid = webhookUrlError(options.url);
  if (target.protocol === "http:") {
    if (!options.allowHttp) {
      return [
        error(
          "http-url",
          `${shown} is plain http, which the apiserver never calls ('https' is the only allowed URL scheme); not probed`,
          "serve the webhook over https; to probe a local server anyway, add --allow-http",
        ),
      ];
    }
    if (options.fromFlag) {
      found.push(
        error(
          "http-url",
          `${shown} is plain http: the apiserver calls only https URLs; probed only because of --allow-http`,
          "serve the webhook over https (Workers and Lambda function URLs are) and put that URL in the CRD",
        ),
      );
    }
  } else if (invalid) {
    return options.fromFlag
      ? [
          error(
            "probe-url-invalid",
            `--url: ${invalid}`,
            "give the webhook's URL as the apiserver takes it: https://host[/path]",
          ),
        ]
      : [info("probe-skipped", "not probed: the CRD's url is one the apiserver refuses (see url-invalid)")];
  }
  if (options.fromFlag && crd.url !== undefined && crd.url !== options.url)
    found.push(info("probe-url", `probed ${shown}, not the CRD's url ${redactUrl(crd.url)}`));

  const bundle = crd.caBundle !== undefined ? readCaBundle(crd.caBundle) : undefined;
  const ca = bundle?.kind === "certificates" ? bundle.pem : undefined;
  const live = urlSide(shown, options.url, {
    acceptUntrusted: true,
    timeoutMs: options.timeoutMs ?? APISERVER_TIMEOUT_MS,
    ...(ca !== undefined ? { ca } : {}),
  });
  const local = registrySide("registry", registry);
  const reviewVersion = crd.reviewVersions?.find((version) => version === "v1" || version === "v1beta1") ?? "v1";
  const served = crd.versions
    .filter((version) => version.served && definition.versions.has(version.name))
    .map((version) => version.name);
  const latencies: number[] = [];
  let tls: TlsPeer | undefined;
  let calls = 0;
  let pairs = 0;
  let replyProblems = 0;
  try {
    probing: for (const from of served) {
      const objects = await sampleObjects(definition, from, {
        namespaced: crd.namespaced,
        count: options.objectsPerPair * 4,
        ...(options.seed !== undefined ? { seed: options.seed } : {}),
      });
      for (const to of served) {
        if (from === to) continue;
        pairs++;
        const chosen = await choose(
          objects,
          `${crd.group}/${to}`,
          reviewVersion,
          local.convert,
          options.objectsPerPair,
        );
        let reported = false;
        for (const { request, expected } of chosen) {
          const result = await live.convert(request);
          calls++;
          if (result.status === undefined) {
            found.push(
              error(
                /deadline/.test(errorOf(result.verdict)) ? "probe-timeout" : "probe-unreachable",
                errorOf(result.verdict),
                "check the URL, and that the webhook is up and reachable from the apiserver",
              ),
            );
            break probing;
          }
          latencies.push(result.elapsedMs);
          tls ??= result.tls;
          if (reported) continue;
          const finding = judge(result, expected, from, to);
          if (finding) {
            found.push(finding);
            reported = true;
            replyProblems++;
          }
        }
      }
    }
  } finally {
    live.close();
    local.close();
  }
  if (tls) {
    found.push(
      ...tlsFindings(tls, {
        hostname: target.hostname,
        caBundleSet: ca !== undefined,
        clientConfigPath: crd.clientConfigPath,
        now: options.now,
      }),
    );
    if (ca !== undefined && tls.authorized && (await trustedBySystemRoots(target))) {
      found.push(
        warning(
          "cabundle-pins-public-ca",
          `${crd.clientConfigPath}.caBundle is set, but the system roots already trust ${target.hostname}: the bundle pins a CA that can rotate, and then every conversion fails`,
          `remove ${crd.clientConfigPath}.caBundle: with it empty the apiserver uses its system roots`,
        ),
      );
    }
  }
  found.push(...latencyFindings(latencies));
  if (served.length < 2) {
    found.push(
      info(
        "probe-nothing-to-convert",
        `fewer than two served versions are in the registry (${served.join(", ") || "none"}): no pair to probe`,
      ),
    );
  } else if (
    calls > 0 &&
    replyProblems === 0 &&
    !found.some((finding) => finding.code === "probe-unreachable" || finding.code === "probe-timeout")
  ) {
    found.push(
      info(
        "probe-ok",
        `${calls} ${reviewVersion} ConversionReviews over ${pairs} ordered pairs of served versions: every reply passed the apiserver's checks and matched the registry's own answer`,
      ),
    );
  }
  return found;
}

interface Planned {
  request: ReviewRequest;
  expected: ApiserverVerdict;
}

/** Objects the registry converts come first: a refusal proves less about the webhook. */
async function choose(
  objects: unknown[],
  desired: string,
  reviewVersion: "v1" | "v1beta1",
  convert: (request: ReviewRequest) => Promise<SideResult>,
  count: number,
): Promise<Planned[]> {
  const planned: Planned[] = [];
  for (const object of objects) {
    const request = reviewRequest(desired, [object], reviewVersion);
    planned.push({ request, expected: (await convert(request)).verdict });
  }
  return [...planned.filter((plan) => plan.expected.ok), ...planned.filter((plan) => !plan.expected.ok)].slice(
    0,
    count,
  );
}

/** The live answer against the registry's own: a rejection is an error, another answer a warning. */
function judge(result: SideResult, expected: ApiserverVerdict, from: string, to: string): Finding | undefined {
  const pair = `${from} → ${to}`;
  const comparison = compareVerdicts(result.verdict, expected);
  const redirect = result.location
    ? ` (the reply is a redirect to ${redactUrl(result.location)}: put the final URL in the CRD)`
    : "";
  switch (comparison.outcome) {
    case "same":
      return undefined;
    case "both-failed":
      return comparison.baseline === comparison.candidate
        ? undefined
        : differs(
            `${pair}: the webhook failed with "${comparison.baseline}", the registry with "${comparison.candidate}"`,
          );
    case "baseline-failed":
      return error(
        "reply-rejected",
        `${pair}: the apiserver would fail the conversion: ${comparison.baseline}${redirect}`,
        "make the URL serve this registry (deploy it), and check that nothing in front of it (proxy, auth, path token) changes the request or the reply",
      );
    case "candidate-failed":
      return differs(`${pair}: the webhook converted an object the registry refuses (${comparison.candidate})`);
    case "different": {
      const first = comparison.differences[0]!;
      const more = comparison.differences.length > 1 ? ` and ${comparison.differences.length - 1} more` : "";
      return differs(
        `${pair}: the webhook's result differs from the registry's at ${first.path}: ${shown(first.baseline)} from the webhook, ${shown(first.candidate)} from the registry${more}`,
      );
    }
  }
}

function differs(message: string): Finding {
  return warning(
    "differs-from-registry",
    `${message}: the deployed webhook is not running this registry`,
    "deploy the current registry, or run crdshift diff --against URL to see every difference first",
  );
}

function shown(value: unknown): string {
  return value === undefined
    ? "missing"
    : JSON.stringify(value, (_key, item) => (typeof item === "bigint" ? item.toString() : item));
}

function errorOf(verdict: ApiserverVerdict): string {
  return verdict.ok ? "" : verdict.error;
}
