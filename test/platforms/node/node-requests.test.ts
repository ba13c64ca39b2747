import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkReply, type SentReview } from "../../../src/kube/apiserver/apiserver-checks";
import { type Answer, listen, type Reports, send, type Sent } from "./node-wire";

// Every way a request can go, sent over TCP to the Node server (the Hono app on
// @hono/node-server): what the caller gets back and what the server counts for it.

const TOKEN = "node-requests-token-0123456789";
const NEXT = "node-requests-next-9876543210";
const docsV1 = readFileSync(new URL("../../../examples/requests/docs-v1.json", import.meta.url), "utf8");
const failing = docsV1.replace('"desiredAPIVersion": "example.com/v1"', '"desiredAPIVersion": "example.com/v9"');
const deep = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"d","desiredAPIVersion":"example.com/v1","objects":[${"[".repeat(20)}${"]".repeat(20)}]}}`;
const json: Array<[string, string]> = [["Content-Type", "application/json"]];
const at = `/convert/${TOKEN}?timeout=30s`;

const ENV = {
  CRDSHIFT_TOKEN: TOKEN,
  CRDSHIFT_TOKEN_NEXT: NEXT,
  CRDSHIFT_BODY_LIMIT_BYTES: "4096",
  CRDSHIFT_MAX_DEPTH: "8",
  CRDSHIFT_ALLOWED_SOURCES: "127.0.0.0/8, ::1",
};

/** What a request must come to: a review's reply, a refusal (its metric's reason and error), or health. */
type Expected =
  | { review: "converted" | "failed" }
  | { refused: string; status: number; error: string | RegExp; allow?: string }
  | { health: true };

const converted = { review: "converted" } as const;
const notFound = { refused: "not-found", status: 404, error: "not found" } as const;
const notPost = {
  refused: "method-not-allowed",
  status: 405,
  error: "method not allowed: send the ConversionReview with POST",
  allow: "POST",
} as const;
const notJson = {
  refused: "unsupported-media-type",
  status: 415,
  error: "unsupported media type: send Content-Type: application/json",
} as const;
const tooLarge = {
  refused: "too-large",
  status: 413,
  error: "request body is larger than the limit of 4096 bytes (CRDSHIFT_BODY_LIMIT_BYTES)",
} as const;

const corpus: Array<[Sent, Expected]> = [
  [{ name: "a review", path: at, headers: json, body: docsV1 }, converted],
  [{ name: "a review at the next token", path: `/convert/${NEXT}`, headers: json, body: docsV1 }, converted],
  [{ name: "a review that fails", path: at, headers: json, body: failing }, { review: "failed" }],
  [
    {
      name: "a review with a charset",
      path: at,
      headers: [["Content-Type", "application/json; charset=utf-8"]],
      body: docsV1,
    },
    converted,
  ],
  [{ name: "a review after a byte order mark", path: at, headers: json, body: `\uFEFF${docsV1}` }, converted],
  [{ name: "a review with another query", path: `${at}&x=%20y`, headers: json, body: docsV1 }, converted],
  [{ name: "a review, chunked", path: at, headers: json, body: docsV1, chunked: true }, converted],
  [
    {
      name: "a review, token percent-encoded",
      path: `/convert/%${TOKEN.charCodeAt(0).toString(16)}${TOKEN.slice(1)}`,
      headers: json,
      body: docsV1,
    },
    converted,
  ],
  [
    {
      name: "a review to a Host with capitals",
      path: at,
      headers: [...json, ["X-Host", "Crdshift.TEST"]],
      body: docsV1,
    },
    converted,
  ],
  [{ name: "a wrong token", path: "/convert/wrong-token-0123456789abc", headers: json, body: docsV1 }, notFound],
  [{ name: "a prefix of the token", path: `/convert/${TOKEN.slice(0, -1)}`, headers: json, body: docsV1 }, notFound],
  [{ name: "no token", path: "/convert", headers: json, body: docsV1 }, notFound],
  [{ name: "a path past the token", path: `/convert/${TOKEN}/more`, headers: json, body: docsV1 }, notFound],
  [{ name: "a path in capitals", path: `/CONVERT/${TOKEN}`, headers: json, body: docsV1 }, notFound],
  [{ name: "GET", method: "GET", path: at }, notPost],
  [{ name: "PUT", method: "PUT", path: at, headers: json, body: docsV1 }, notPost],
  [{ name: "HEAD", method: "HEAD", path: at }, notPost],
  [{ name: "text/plain", path: at, headers: [["Content-Type", "text/plain"]], body: docsV1 }, notJson],
  [{ name: "no content type", path: at, body: docsV1 }, notJson],
  [{ name: "two content types", path: at, headers: [...json, ...json], body: docsV1 }, notJson],
  [{ name: "a body over the limit", path: at, headers: json, body: `${docsV1}${" ".repeat(5000)}` }, tooLarge],
  [{ name: "a chunked body over the limit", path: at, headers: json, body: " ".repeat(5000), chunked: true }, tooLarge],
  [
    { name: "invalid JSON", path: at, headers: json, body: '{"apiVersion":' },
    { refused: "invalid-json", status: 400, error: /JSON/ },
  ],
  [
    { name: "an empty body", path: at, headers: json, body: "" },
    { refused: "invalid-json", status: 400, error: /JSON/ },
  ],
  [
    { name: "too deep", path: at, headers: json, body: deep },
    { refused: "too-deep", status: 400, error: /nested \d+ levels deep, over the limit of 8 \(CRDSHIFT_MAX_DEPTH\)/ },
  ],
  [
    { name: "JSON that is no review", path: at, headers: json, body: '{"kind":"Pod"}' },
    { refused: "invalid-review", status: 400, error: /ConversionReview/ },
  ],
  [{ name: "healthz", method: "GET", path: "/healthz" }, { health: true }],
  [{ name: "an unknown path", method: "GET", path: "/metrics" }, notFound],
];

/** The answer and the reports of one request, checked against what it must come to. */
function expectAnswer(sent: Sent, expected: Expected, answer: Answer, reported: Reports): void {
  const { status, headers, body } = answer;
  const context = `${sent.name}: ${status} ${body}`;
  // One framing the apiserver's client reads: a length, never chunks; always JSON.
  expect(headers.get("content-type"), context).toBe("application/json");
  expect(headers.has("transfer-encoding"), context).toBe(false);
  if (sent.method !== "HEAD") expect(Number(headers.get("content-length")), context).toBe(Buffer.byteLength(body));
  const counted = reported.filter(([kind]) => kind === "rejected" || kind === "review");
  if ("review" in expected) {
    const verdict = checkReply(JSON.parse(sent.body!.replace(/^\uFEFF/, "")) as SentReview, status, body);
    expect(verdict.ok, context).toBe(expected.review === "converted");
    if (!verdict.ok) expect(verdict.error, context).toMatch(/example\.com\/v9/);
    const result = expected.review === "converted" ? "success" : "failure";
    expect(counted, context).toEqual([["review", expect.objectContaining({ result })]]);
  } else if ("refused" in expected) {
    expect(status, context).toBe(expected.status);
    const error = typeof expected.error === "string" ? expected.error : expect.stringMatching(expected.error);
    if (sent.method !== "HEAD") expect(JSON.parse(body), context).toEqual({ error });
    expect(headers.get("allow"), context).toBe(expected.allow);
    expect(counted, context).toEqual([["rejected", expected.refused]]);
  } else {
    expect([status, JSON.parse(body)], context).toEqual([200, { status: "ok" }]);
    expect(counted, context).toEqual([]);
  }
}

describe("the Node server, over TCP", () => {
  it("answers and counts every request of the corpus as a caller depends on", async () => {
    const { port, reports } = await listen(ENV);
    for (const [sent, expected] of corpus) {
      const before = reports.length;
      const answer = await send(port, sent);
      expectAnswer(sent, expected, answer, reports.slice(before));
    }
  });

  it("answers random requests with JSON, framed by a length, each counted once", async () => {
    const { port, reports } = await listen(ENV);
    const request = fc.record({
      method: fc.constantFrom("POST", "POST", "POST", "GET", "PUT", "DELETE", "HEAD"),
      path: fc.constantFrom(at, `/convert/${NEXT}`, "/convert", `/convert/${TOKEN.slice(1)}`, `${at}&a=b`, "/convert/"),
      contentType: fc.constantFrom<Array<[string, string]>>(
        json,
        [],
        [["Content-Type", "text/plain"]],
        [["Content-Type", "application/merge-patch+json"]],
        [["content-type", "APPLICATION/JSON ; charset=utf-8"]],
        [...json, ["Content-Type", "text/plain"]],
      ),
      body: fc.oneof(
        fc.constantFrom(docsV1, failing, deep, '{"apiVersion":', "", `${docsV1}${" ".repeat(5000)}`),
        fc.string({ maxLength: 40 }),
      ),
      chunked: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ method, path, contentType, body, chunked }) => {
        const sent: Sent = { name: `${method} ${path}`, method, path, headers: contentType };
        if (method !== "GET" && method !== "HEAD") Object.assign(sent, { body, chunked });
        const before = reports.length;
        const { status, headers, body: replied } = await send(port, sent);
        expect(headers.get("content-type")).toBe("application/json");
        expect(headers.has("transfer-encoding")).toBe(false);
        expect([200, 400, 404, 405, 413, 415]).toContain(status);
        if (method !== "HEAD") expect(() => JSON.parse(replied) as unknown).not.toThrow();
        const counted = reports.slice(before).filter(([kind]) => kind === "rejected" || kind === "review");
        expect(counted).toHaveLength(1);
        expect(counted[0]![0]).toBe(status === 200 ? "review" : "rejected");
      }),
      { numRuns: 60 },
    );
  });
});
