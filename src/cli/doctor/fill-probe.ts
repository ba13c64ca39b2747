import type { KindDefinition, Registry } from "../../conversion";
import { type ReviewRequest, registrySide, reviewRequest, urlSide } from "../webhook-call";
import type { CrdConfig } from "./crd-config";
import { fillFindings, fillingCaches, nothingToFill } from "./fill-estimate";
import { FILL_CONCURRENCY, measureFill } from "./fill-measurement";
import { type Finding, info } from "./finding";
import { chooseReviews } from "./probe-replies";
import { sampleObjects } from "./sample-objects";

/**
 * A reply to one small object is small; ten at once, each allowed the probe's 64 MiB, would have
 * a hostile webhook hold the command's memory.
 */
const FILL_MAX_REPLY_BYTES = 4 * 1024 * 1024;

export interface FillProbeOptions {
  url: string;
  ca?: string;
  reviewVersion: "v1" | "v1beta1";
  /** The objects a cache holds, and where that count came from (`--stored`, or a file's name). */
  objects: number;
  countedFrom: string;
  /** Each call's deadline; the timed calls together start within it too. */
  callTimeoutMs: number;
  seed?: number;
}

/**
 * Times the webhook as a watch cache's fill calls it and estimates the fill: a review of an
 * object in the version it is stored in, to the version of a cache that converts it.
 */
export async function probeFill(
  crd: CrdConfig,
  definition: KindDefinition,
  registry: Registry,
  options: FillProbeOptions,
): Promise<Finding[]> {
  const { storage, caches } = fillingCaches(crd);
  if (caches.length === 0) return [nothingToFill(crd)];
  const known = (version: string | undefined) => version !== undefined && definition.versions.has(version);
  const from =
    caches[0] === storage
      ? crd.storedVersions?.find((version) => version !== storage && known(version))
      : known(storage)
        ? storage
        : undefined;
  const to = caches.find((version) => version !== from && known(version));
  if (from === undefined || to === undefined)
    return [
      info(
        "fill-not-estimated",
        "the watch cache fill was not timed: the registry lacks the stored version or every cache's version (see the registry's findings)",
      ),
    ];
  const objects = await sampleObjects(definition, from, {
    namespaced: crd.namespaced,
    count: 4,
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
  });
  const local = registrySide("registry", registry);
  const [chosen] = await chooseReviews(objects, `${crd.group}/${to}`, options.reviewVersion, local.convert, 1).finally(
    () => local.close(),
  );
  if (!chosen?.expected.ok)
    return [
      info("fill-not-estimated", `the watch cache fill was not timed: the registry converts no sample ${from} → ${to}`),
    ];
  const sent = chosen.request.review.request.objects;
  // A fresh uid per call, as the apiserver sends.
  const request = (): ReviewRequest => reviewRequest(`${crd.group}/${to}`, sent, options.reviewVersion);
  const live = urlSide("webhook", options.url, {
    acceptUntrusted: true,
    timeoutMs: options.callTimeoutMs,
    maxSockets: FILL_CONCURRENCY,
    maxReplyBytes: FILL_MAX_REPLY_BYTES,
    ...(options.ca !== undefined ? { ca: options.ca } : {}),
  });
  try {
    const measured = await measureFill(live, request, options.callTimeoutMs);
    return fillFindings(crd, { objects: options.objects, countedFrom: options.countedFrom, from, to }, measured);
  } finally {
    live.close();
  }
}
