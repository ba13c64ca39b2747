import type { CrdConfig } from "./crd-config";
import { FILL_CONCURRENCY, type FillMeasurement } from "./fill-measurement";
import { type Finding, info, warning } from "./finding";

/** Past this, a cache's fill is long enough for an operator to plan for. */
export const SLOW_FILL_MS = 60_000;

/**
 * The watch caches that call the webhook as they fill: each served version has its own cache
 * on every apiserver, and decodes every stored object into that version one object per call
 * (apiserver-contract.md §1). The storage version's cache calls only for objects still stored
 * in an older version (`status.storedVersions`).
 */
export function fillingCaches(crd: CrdConfig): { storage: string | undefined; caches: string[] } {
  const storage = crd.versions.find((version) => version.storage)?.name;
  const caches = crd.versions
    .filter((version) => version.served && version.name !== storage)
    .map((version) => version.name);
  const olderStored = (crd.storedVersions ?? []).some((version) => version !== storage);
  const storageServed = crd.versions.some((version) => version.served && version.name === storage);
  if (caches.length === 0 && olderStored && storageServed && storage !== undefined) caches.push(storage);
  return { storage, caches };
}

/** Said instead of an estimate when no cache converts: nothing is timed. */
export function nothingToFill(crd: CrdConfig): Finding {
  const storage = fillingCaches(crd).storage ?? "?";
  return info(
    "fill-estimate",
    `no watch cache calls the webhook as it fills: the only served version is the storage version ${storage}, and status.storedVersions lists no other`,
  );
}

export interface FillFigures {
  objects: number;
  /** Where the count came from, for the message: `--stored`, `counted in FILE`. */
  countedFrom: string;
  /** The review that was timed: stored version to a cache's version. */
  from: string;
  to: string;
}

/**
 * The time one watch cache (of `fillingCaches`, at least one) takes to fill, from the calls
 * measured: the first call (or the first FILL_CONCURRENCY) on new connections, every other
 * object at the rate measured one at a time (before Kubernetes 1.37) and FILL_CONCURRENCY at once
 * (1.37 on). Never divided down from one-at-a-time latency: a webhook that takes calls in turn
 * fills no faster with ten.
 */
export function fillFindings(crd: CrdConfig, figures: FillFigures, measured: FillMeasurement): Finding[] {
  const { storage, caches } = fillingCaches(crd);
  const label = `${crd.kind}.${crd.group}`;
  if (!measured.ok)
    return [info("fill-not-estimated", `the watch cache fill was not timed: a call failed: ${measured.error}`)];
  const n = figures.objects;
  const perObjectSerial =
    measured.serial.calls > 0 ? measured.serial.elapsedMs / measured.serial.calls : measured.firstMs;
  const oneAtATime = n === 0 ? 0 : measured.firstMs + (n - 1) * perObjectSerial;
  const opened = measured.openingRound.calls === FILL_CONCURRENCY;
  const perObjectConcurrent =
    measured.concurrent.calls > 0
      ? measured.concurrent.elapsedMs / measured.concurrent.calls
      : opened
        ? measured.openingRound.elapsedMs / measured.openingRound.calls
        : undefined;
  const atOnce =
    perObjectConcurrent === undefined
      ? undefined
      : n <= FILL_CONCURRENCY
        ? // As many calls at once as objects: the opening round's time at most.
          Math.min(measured.openingRound.elapsedMs, oneAtATime)
        : measured.openingRound.elapsedMs + (n - FILL_CONCURRENCY) * perObjectConcurrent;

  const cacheWords =
    caches[0] === storage
      ? `the apiserver makes up to one call per object when it starts or re-lists, for the storage version ${storage}'s cache (objects still stored in an older version, status.storedVersions)`
      : `the apiserver makes one call per object when it starts or re-lists, for each served version other than the storage version ${storage ?? "?"} (${caches.join(", ")}: ${caches.length === 1 ? "one cache" : `${caches.length} caches, filled side by side`})`;
  const times =
    atOnce === undefined
      ? `${duration(oneAtATime)} one at a time (before Kubernetes 1.37); ${FILL_CONCURRENCY} at once was not timed (the time budget ran out)`
      : `${duration(atOnce)} at ${FILL_CONCURRENCY} calls at once (Kubernetes 1.37 on) and ${duration(oneAtATime)} one at a time (before 1.37)`;
  const speedup = perObjectConcurrent === undefined ? undefined : perObjectSerial / perObjectConcurrent;
  const inTurn =
    speedup !== undefined && speedup < 2
      ? `; ${FILL_CONCURRENCY} at once was only ${speedup.toFixed(1)} times as fast as one at a time: the webhook takes calls in turn${caches.length > 1 ? `, so the ${caches.length} caches filling side by side share it and each takes up to ${caches.length} times as long` : ""}`
      : "";
  const found: Finding[] = [
    {
      ...info(
        "fill-estimate",
        `one watch cache of ${count(n)} ${label} objects (${figures.countedFrom}) fills in about ${times}; ${cacheWords}${inTurn}`,
      ),
      figures: {
        objects: n,
        caches: caches.length,
        oneAtATimeMs: round(oneAtATime),
        ...(atOnce !== undefined ? { tenAtOnceMs: round(atOnce) } : {}),
      },
    },
    {
      ...info(
        "fill-measured",
        `timed single-object reviews ${figures.from} → ${figures.to}: first ${duration(measured.firstMs)} (new connection), then ${duration(perObjectSerial)} each over ${measured.serial.calls} one at a time; ${FILL_CONCURRENCY} at once: the first ${FILL_CONCURRENCY} in ${duration(measured.openingRound.elapsedMs)} (new connections), then ${perObjectConcurrent === undefined ? "not timed" : `${duration(perObjectConcurrent)} per object over ${measured.concurrent.calls}`}${measured.cut ? "; cut short by the probe's time budget" : ""}`,
      ),
      figures: {
        firstMs: round(measured.firstMs),
        oneAtATimeCalls: measured.serial.calls,
        oneAtATimeMsPerObject: round(perObjectSerial),
        openingRoundMs: round(measured.openingRound.elapsedMs),
        tenAtOnceCalls: measured.concurrent.calls,
        ...(perObjectConcurrent !== undefined ? { tenAtOnceMsPerObject: round(perObjectConcurrent) } : {}),
      },
    },
  ];
  const slow = [
    ...(atOnce !== undefined && atOnce > SLOW_FILL_MS ? [`${duration(atOnce)} at ${FILL_CONCURRENCY} at once`] : []),
    ...(oneAtATime > SLOW_FILL_MS ? [`${duration(oneAtATime)} one at a time`] : []),
  ];
  if (slow.length > 0) {
    found.push(
      warning(
        "fill-slow",
        `a watch cache of ${count(n)} ${label} objects takes ${slow.join(" and ")} to fill, past a minute: until it has filled, that version's cache is not ready (kubernetes #136950), on every apiserver start and re-list`,
        `deploy the webhook in a platform region near the cluster (the round trip is most of each call); on Lambda, provisioned concurrency of ${FILL_CONCURRENCY * caches.length} or more, so that the calls at once do not wait on cold starts; serve fewer versions (each served version other than the storage version is one more cache to fill)`,
      ),
    );
  }
  return found;
}

function count(n: number): string {
  return n.toLocaleString("en-US");
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/** `450 ms`, `3.2 s`, `1 min 40 s`, `2 h 5 min`. */
export function duration(ms: number): string {
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min${seconds % 60 ? ` ${seconds % 60} s` : ""}`;
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ""}`;
}
