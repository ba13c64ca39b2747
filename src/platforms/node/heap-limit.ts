import { getHeapStatistics } from "node:v8";
import { DEFAULTS } from "../../server";

/**
 * The young generation's share of `heap_size_limit` on 64-bit V8 on a host of over 2 GiB (V8 gives
 * it less on smaller ones): a review's trees do not stay there. Advice counts the whole reserve,
 * which holds whatever the young generation's size.
 */
const YOUNG_GENERATION_BYTES = 48 * 1024 * 1024;
/**
 * What the old space keeps from reviews: the server's own heap idle (about 10 MiB) and room for
 * garbage not yet collected. Measured on the built server: the densest single object the default
 * limits admit (2.95 MiB of `{}`, 169 MiB estimated) aborted the process under a heap limit 55 MiB
 * above its estimate and converted, six times running, under one 71 MiB above it.
 */
const OLD_SPACE_RESERVE_BYTES = 48 * 1024 * 1024;
/** What V8's heap limit keeps from reviews in all. */
export const HEAP_RESERVE_BYTES = YOUNG_GENERATION_BYTES + OLD_SPACE_RESERVE_BYTES;

/** This process's V8 heap limit, in bytes: `--max-old-space-size` plus the young generation. */
export function heapSizeLimit(): number {
  return getHeapStatistics().heap_size_limit;
}

/**
 * The Node server's default CRDSHIFT_MAX_BYTES_IN_FLIGHT: the server's own, or less where V8's
 * heap limit leaves less. Past its limit V8 aborts the whole process ("JavaScript heap out of
 * memory") rather than failing one review, so a Node given a small heap (a container,
 * `--max-old-space-size`) must refuse or queue reviews instead.
 */
export function heapBoundCap(limitBytes: number): number {
  return Math.max(0, Math.min(DEFAULTS.maxBytesInFlight, limitBytes - HEAP_RESERVE_BYTES));
}

/**
 * A warning when the cap in force (set, or raised to what the largest body holds at least) is
 * more than the heap leaves for reviews: reviews it admits could end the process.
 */
export function heapLimitWarning(capBytes: number, limitBytes: number): string | undefined {
  const room = Math.max(0, limitBytes - HEAP_RESERVE_BYTES);
  if (capBytes <= room) return undefined;
  return (
    `CRDSHIFT_MAX_BYTES_IN_FLIGHT (${mebibytes(capBytes)} MiB) is more than V8's heap limit (${mebibytes(limitBytes)} MiB) leaves for reviews (${mebibytes(room)} MiB): ` +
    `reviews admitted at once could run the process out of memory; give Node a larger heap (--max-old-space-size=${Math.ceil((capBytes + HEAP_RESERVE_BYTES) / MiB)} at least) ` +
    "or lower CRDSHIFT_MAX_BYTES_IN_FLIGHT (and CRDSHIFT_BODY_LIMIT_BYTES, which it must leave room for)"
  );
}

const MiB = 1024 * 1024;

/** For the message; the flag to set is rounded up, so that it is enough. */
function mebibytes(bytes: number): number {
  return Math.round(bytes / MiB);
}
