import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { registry } from "../../../examples";
import { convertBody, heldBeforeRead } from "../../../src/conversion";
import { heldByShape } from "../../../src/conversion/held-memory";
import { scanBody } from "../../../src/json";
import { readConfig } from "../../../src/server/config";
import { listen, send } from "./node-wire";

// A large review's reply, printed into bytes as its objects convert, on the wire: the bytes the
// engine's text is, framed by their Content-Length; and two such reviews sent at once, whose
// lengths fit together but which each turn out to hold more than half the cap, do not refuse
// each other.

const docsV1 = JSON.parse(readFileSync(new URL("../../../examples/requests/docs-v1.json", import.meta.url), "utf8"));
// A small object size limit has a body this size scanned before it is parsed, as one over 1 MiB is.
const SCANNED = { CRDSHIFT_MAX_OBJECT_BYTES: "20000" };

function largeReview(count: number): string {
  const [object] = docsV1.request.objects;
  const objects = Array.from({ length: count }, (_, i) => ({
    ...object,
    metadata: { ...object.metadata, name: `crontab-\u00e9-${i}`, uid: `uid-${i}` },
    note: "\u2603\u{1F600}".repeat(10),
    items: Array.from({ length: 60 }, (_, j) => ({ n: j })),
  }));
  return `${JSON.stringify({ ...docsV1, request: { ...docsV1.request, objects } })}\n`;
}

const post = (body: string) => ({
  name: "review",
  method: "POST",
  path: "/convert?timeout=30s",
  headers: [["Content-Type", "application/json"]] as Array<[string, string]>,
  body,
});

describe("the Node server: a large review", () => {
  it("is answered with the bytes of the reply the engine prints, their length declared", async () => {
    const body = largeReview(300);
    const config = readConfig(SCANNED);
    expect(body.length * 3).toBeGreaterThan(config.maxObjectBytes);
    const outcome = await convertBody(registry, body, { limits: config });
    if (!outcome.ok || outcome.failure) throw new Error("not converted");
    expect(outcome.bytes).toBeDefined();
    const { port } = await listen(SCANNED);
    const answer = await send(port, post(body));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-length")).toBe(String(Buffer.byteLength(outcome.text)));
    expect(answer.body).toBe(outcome.text);
    expect(JSON.parse(answer.body).response.convertedObjects).toHaveLength(300);
  });

  it("two sent at once, each holding more than half the cap though their lengths fit together: both converted, none refused", async () => {
    const body = largeReview(300);
    const config = readConfig(SCANNED);
    const bytes = Buffer.byteLength(body);
    const least = heldBeforeRead(bytes, config);
    const held = heldByShape(body.length, scanBody(body));
    // Room for both on their length, not for one's estimate beside the other's length.
    const cap = held;
    expect(2 * least).toBeLessThanOrEqual(cap);
    expect(held + least).toBeGreaterThan(cap);
    const { port, webhook } = await listen({
      ...SCANNED,
      CRDSHIFT_BODY_LIMIT_BYTES: String(bytes),
      CRDSHIFT_MAX_BYTES_IN_FLIGHT: String(cap),
    });
    const answers = await Promise.all([send(port, post(body)), send(port, post(body))]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    for (const answer of answers) expect(JSON.parse(answer.body).response.result.status).toBe("Success");
    expect(webhook.inFlight.heldBytes).toBe(0);
  });
});
