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
