import type { KindDefinition, Registry } from "../../conversion";
import type { ApiserverVerdict } from "../../kube/apiserver";
import { registrySide, urlSide, APISERVER_TIMEOUT_MS, type TlsPeer, redactUrl } from "../webhook-call";
import { readCaBundle } from "./ca-bundle";
import type { CrdConfig } from "./crd-config";
import { probeFill } from "./fill-probe";
import { error, type Finding, info, warning } from "./finding";
import { HEALTH_DEADLINE_MS, healthFindings, readHealth } from "./health";
import { latencyFindings } from "./latency";
import { chooseReviews, judgeReply } from "./probe-replies";
import { probeTarget } from "./probe-target";
import { sampleObjects } from "./sample-objects";
import { tlsFindings, trustedBySystemRoots } from "./tls-checks";

/** The probe's calls together take at most this many times one call's deadline. */
const PROBE_CALL_TIMEOUTS = 2;

export interface ProbeOptions {
  url: string;
  /** The URL came from --url rather than the CRD (whose URL the static checks already judged). */
  fromFlag: boolean;
  allowHttp: boolean;
  objectsPerPair: number;
  seed?: number;
  now: Date;
  timeoutMs?: number;
  /** Estimate a watch cache's fill for this many objects (`--stored`, `--stored-file`). */
  stored?: { objects: number; countedFrom: string };
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
  const gate = probeTarget(crd, options);
  if (!gate.ok) return gate.skip;
  const { target } = gate;
  const found: Finding[] = gate.found;
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
  // The side calls (health, a second handshake) wait no longer than a review may.
  const sideDeadline = Math.min(HEALTH_DEADLINE_MS, options.timeoutMs ?? APISERVER_TIMEOUT_MS);
  const latencies: number[] = [];
  let tls: TlsPeer | undefined;
  let calls = 0;
  const planned = served.length * (served.length - 1) * options.objectsPerPair;
  // Each call has the apiserver's deadline; all of them together have this one, so that a
  // webhook answering just inside it cannot hold the command for every call's worth.
  const callTimeout = options.timeoutMs ?? APISERVER_TIMEOUT_MS;
  const probeEnds = performance.now() + PROBE_CALL_TIMEOUTS * callTimeout;
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
        const chosen = await chooseReviews(
          objects,
          `${crd.group}/${to}`,
          reviewVersion,
          local.convert,
          options.objectsPerPair,
        );
        let reported = false;
        for (const { request, expected } of chosen) {
          if (performance.now() > probeEnds) {
            found.push(
              warning(
                "probe-stopped",
                `stopped after ${calls} of ${planned} calls: together they took more than ${(PROBE_CALL_TIMEOUTS * callTimeout) / 1000} s`,
                "find what makes calls slow (cold starts, converters, the network): the apiserver waits as long on every read",
              ),
            );
            break probing;
          }
          const result = await live.convert(request);
          calls++;
          if (result.callFailure !== undefined) {
            found.push(
              error(
                result.callFailure === "timeout" ? "probe-timeout" : "probe-unreachable",
                errorOf(result.verdict),
                "check the URL, and that the webhook is up and reachable from the apiserver",
              ),
            );
            break probing;
          }
          latencies.push(result.elapsedMs);
          tls ??= result.tls;
          if (reported) continue;
          const finding = judgeReply(result, expected, from, to);
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
    if (ca !== undefined && tls.authorized && (await trustedBySystemRoots(target, sideDeadline))) {
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
  // A webhook the probe could not get through to is not called again for the estimate.
  const failed = found.some((finding) =>
    ["probe-unreachable", "probe-timeout", "probe-stopped"].includes(finding.code),
  );
  if (options.stored && !failed) {
    found.push(
      ...(await probeFill(crd, definition, registry, {
        url: options.url,
        ...(ca !== undefined ? { ca } : {}),
        reviewVersion,
        ...options.stored,
        callTimeoutMs: callTimeout,
        ...(options.seed !== undefined ? { seed: options.seed } : {}),
      })),
    );
  } else if (options.stored) {
    found.push(info("fill-not-estimated", "the watch cache fill was not timed: the probe did not get through"));
  }
  if (calls > 0)
    found.push(
      ...healthFindings(await readHealth(options.url, { acceptUntrusted: true, ...(ca ? { ca } : {}) }, sideDeadline)),
    );
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

function errorOf(verdict: ApiserverVerdict): string {
  return verdict.ok ? "" : verdict.error;
}
