import { cronTab } from "./objects";

/**
 * Review bodies in pairs that differ only in one number per object: a safe integer, or an
 * integer beyond 2^53 (an int64 field such as a byte count), in every object or in the first
 * alone; a CronTab also holds it in its last-applied-configuration annotation, as JSON in a
 * string. The safe one has 15 digits, short of the 16 that send a body to the careful decoder.
 */
export type Int64Shape = "crontab" | "small";
export type Int64Where = "none" | "one" | "every";

const SAFE = 123456789012345;
const BIG = "9223372036854775807";
const LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

function smallObject(i: number): Record<string, unknown> {
  return {
    apiVersion: "example.com/v1beta1",
    kind: "CronTab",
    metadata: { name: `c-${i}`, namespace: "default" },
    hostPort: `db-${i}:5432`,
  };
}

export function int64Body(shape: Int64Shape, n: number, where: Int64Where): string {
  const marker = `__int64_${Math.random().toString(36).slice(2)}__`;
  const objects = Array.from({ length: n }, (_, i) => {
    const object = shape === "crontab" ? cronTab(i) : smallObject(i);
    const big = where === "every" || (where === "one" && i === 0);
    const retentionBytes = big ? marker : SAFE;
    if (shape === "crontab") {
      // As `kubectl apply` leaves it: the applied object, int64 included, as JSON in a string.
      const annotations = (object.metadata as { annotations: Record<string, string> }).annotations;
      const applied = JSON.parse(annotations[LAST_APPLIED]!) as Record<string, unknown>;
      annotations[LAST_APPLIED] = `${JSON.stringify({ ...applied, retentionBytes })}\n`;
    }
    return Object.assign(object, { retentionBytes });
  });
  const text = JSON.stringify({
    kind: "ConversionReview",
    apiVersion: "apiextensions.k8s.io/v1",
    request: { uid: "0a9c7d2e-5f1b-4c3d-8e6f-7a8b9c0d1e2f", desiredAPIVersion: "example.com/v1", objects },
    response: { uid: "", convertedObjects: null, result: { metadata: {} } },
  });
  return `${text.replaceAll(`"${marker}"`, BIG).replaceAll(`\\"${marker}\\"`, BIG)}\n`;
}
