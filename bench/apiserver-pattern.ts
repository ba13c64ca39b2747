import { randomUUID } from "node:crypto";
import type { ApiserverClient, Call } from "./apiserver-client";
import { cronTab } from "./objects";

/**
 * The calls the kube-apiserver makes to a conversion webhook (apiserver contract §1): every
 * object read from etcd is decoded to the requested version on its own, so a watch cache of a
 * served version that is not the storage version fills with one single-object review per
 * object, and a watch event decodes the new object and the previous one: two calls, one after
 * the other. Objects are stored as v1beta1 and served as v1, the direction the naive webhook
 * converts too.
 */
const DESIRED = "example.com/v1";

/** A unit of the apiserver's work: one object of a cache fill, or one watch event. */
export type Unit = string[];

/** A review of one object as the apiserver writes it: a fresh uid per call, compact, a newline. */
export function singleObjectReview(object: Record<string, unknown>): string {
  return `${JSON.stringify({
    kind: "ConversionReview",
    apiVersion: "apiextensions.k8s.io/v1",
    request: { uid: randomUUID(), desiredAPIVersion: DESIRED, objects: [object] },
    response: { uid: "", convertedObjects: null, result: { metadata: {} } },
  })}\n`;
}

/** A cache fill of `objects` CronTabs, each its own name and uid: one call per object. */
export function cacheFill(objects: number, offset = 0): Unit[] {
  return Array.from({ length: objects }, (_, i) => [singleObjectReview(cronTab(offset + i))]);
}

/** `events` watch events, each an update of a CronTab: the new object's call, then the old one's. */
export function watchEvents(events: number, offset = 0): Unit[] {
  return Array.from({ length: events }, (_, i) => {
    const current = revision(cronTab(offset + i), 2 * i + 2, 5);
    const previous = {
      ...revision(cronTab(offset + i), 2 * i + 1, 4),
      hostPort: `db-old-${offset + i}.payments.svc:5432`,
    };
    return [singleObjectReview(current), singleObjectReview(previous)];
  });
}

function revision(object: Record<string, unknown>, resourceVersion: number, generation: number) {
  const metadata = object.metadata as Record<string, unknown>;
  return { ...object, metadata: { ...metadata, resourceVersion: String(resourceVersion), generation } };
}

export interface Driven {
  wallMs: number;
  /** Each unit's time, its calls one after the other, in the units' order. */
  unitMs: number[];
  /** Every call, with the index of the unit it belongs to. */
  calls: Array<Call & { unitIndex: number }>;
}

/**
 * Runs the units `concurrency` at a time, as the apiserver's goroutines do: each takes the next
 * unit and makes its calls in order. Bodies are built before and replies checked after, so the
 * client spends its time in flight on the wire, not beside the server on the same two cores.
 */
export async function drive(client: ApiserverClient, units: Unit[], concurrency: number): Promise<Driven> {
  const unitMs: number[] = [];
  const calls: Driven["calls"] = [];
  let next = 0;
  const start = performance.now();
  const worker = async () => {
    while (next < units.length) {
      const unit = next++;
      const begun = performance.now();
      for (const body of units[unit]!) calls.push({ ...(await client.call(body)), unitIndex: unit });
      unitMs[unit] = performance.now() - begun;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, units.length) }, worker));
  return { wallMs: performance.now() - start, unitMs, calls };
}
