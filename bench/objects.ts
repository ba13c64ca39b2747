/**
 * Realistic CronTabs, about 1 KB each, as a real apiserver sends them: full metadata with labels,
 * annotations (a last-applied-configuration) and a managedFields entry, a spec and a status.
 */
export function cronTab(i: number): Record<string, unknown> {
  const name = `crontab-${i}`;
  return {
    apiVersion: "example.com/v1beta1",
    kind: "CronTab",
    metadata: {
      annotations: {
        "example.com/owner": "team-payments",
        "kubectl.kubernetes.io/last-applied-configuration": `{"apiVersion":"example.com/v1beta1","hostPort":"db-${i}.payments.svc:5432","kind":"CronTab","metadata":{"annotations":{},"name":"${name}","namespace":"payments"}}\n`,
      },
      creationTimestamp: "2026-11-02T09:14:27Z",
      generation: 4,
      labels: { app: "crontab", "app.kubernetes.io/part-of": "payments", tier: "backend" },
      managedFields: [
        {
          apiVersion: "example.com/v1beta1",
          fieldsType: "FieldsV1",
          fieldsV1: {
            "f:metadata": {
              "f:annotations": { ".": {}, "f:kubectl.kubernetes.io/last-applied-configuration": {} },
              "f:labels": { ".": {}, "f:app": {} },
            },
            "f:hostPort": {},
          },
          manager: "kubectl-client-side-apply",
          operation: "Update",
          time: "2026-11-02T09:14:27Z",
        },
      ],
      name,
      namespace: "payments",
      uid: `6b1f3c2e-8d4a-4f6b-9c1e-${String(i).padStart(12, "0")}`,
    },
    hostPort: `db-${i}.payments.svc:5432`,
    status: { lastScheduleTime: "2026-11-21T08:00:00Z", phase: "Active" },
  };
}

/**
 * A ConversionReview body as the apiserver writes it (compact, pre-filled response, newline),
 * and as a server holds it: decoded from bytes, one flat string, not the rope of two pieces a
 * template literal makes (which the first pass over it flattens in place).
 */
export function reviewBody(n: number): string {
  return new TextDecoder().decode(new TextEncoder().encode(reviewText(n)));
}

function reviewText(n: number): string {
  return `${JSON.stringify({
    kind: "ConversionReview",
    apiVersion: "apiextensions.k8s.io/v1",
    request: {
      uid: "0a9c7d2e-5f1b-4c3d-8e6f-7a8b9c0d1e2f",
      desiredAPIVersion: "example.com/v1",
      objects: Array.from({ length: n }, (_, i) => cronTab(i)),
    },
    response: { uid: "", convertedObjects: null, result: { metadata: {} } },
  })}\n`;
}

/**
 * A dense review body of about `bytes`: CronTabs of at most 2.5 MiB each (under the default
 * object size limit), each `spec.items` a long array of `item` (`{}` by default, the densest
 * JSON there is: an object for every three characters). What a limit counting bytes alone lets
 * hold many times what a realistic body of the same size holds.
 */
export function denseReviewBody(bytes: number, item = "{}"): string {
  const perObject = Math.min(bytes, 2.5 * 2 ** 20);
  const objects: string[] = [];
  for (let left = bytes, i = 0; left > 200; left -= perObject, i++) {
    const count = Math.max(1, Math.floor((Math.min(left, perObject) - 120) / (item.length + 1)));
    objects.push(
      `{"apiVersion":"example.com/v1beta1","kind":"CronTab","metadata":{"name":"dense-${i}","namespace":"x"},"spec":{"items":[${Array(count).fill(item).join(",")}]}}`,
    );
  }
  const text = `{"kind":"ConversionReview","apiVersion":"apiextensions.k8s.io/v1","request":{"uid":"0a9c7d2e-5f1b-4c3d-8e6f-7a8b9c0d1e2f","desiredAPIVersion":"example.com/v1","objects":[${objects.join(",")}]}}\n`;
  return new TextDecoder().decode(new TextEncoder().encode(text));
}
