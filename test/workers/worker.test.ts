import { createExecutionContext, env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../examples/entry/worker";
import { registry } from "../../examples";
import { createWorker } from "../../src/platforms/workers";
import docsV1 from "../../examples/requests/docs-v1.json";
import docsV1Response from "../../examples/requests/docs-v1.response.json";
import docsV1beta1 from "../../examples/requests/docs-v1beta1.json";
import docsV1beta1Response from "../../examples/requests/docs-v1beta1.response.json";
import { decodeJson } from "../../src/json/codec";
import { checkReply, type SentReview } from "../../src/kube/apiserver/apiserver-checks";
import { DEEP_TREES, deepConverted, deepReview } from "../deep-reviews";

// Inside workerd, through the Worker entry, with the bindings of vitest.config.ts.
const TOKEN = "workers-test-token-0123456789";
const URL_OK = `https://crdshift.test/convert/${TOKEN}?timeout=30s`;

function send(body: string, init: { url?: string; method?: string; contentType?: string | null } = {}) {
  const headers: Record<string, string> = {};
  if (init.contentType !== null) headers["Content-Type"] = init.contentType ?? "application/json";
  return SELF.fetch(init.url ?? URL_OK, {
    method: init.method ?? "POST",
    headers,
    ...(init.method === "GET" ? {} : { body }),
  });
}

async function convert(sent: SentReview) {
  const res = await send(`${JSON.stringify(sent)}\n`);
  const text = await res.text();
  const verdict = checkReply(sent, res.status, text, res.headers.get("content-type") ?? "");
  return { res, reply: JSON.parse(text), verdict };
}

describe("in workerd, the Worker", () => {
  it("runs in the Workers runtime, not Node", () => {
    expect(navigator.userAgent).toBe("Cloudflare-Workers");
  });

  it("answers the docs page's v1 and v1beta1 requests with the docs page's responses", async () => {
    for (const [request, response] of [
      [docsV1, docsV1Response],
      [docsV1beta1, docsV1beta1Response],
    ] as const) {
      const { res, reply, verdict } = await convert(request as SentReview);
      expect(res.status).toBe(200);
      expect(verdict.ok).toBe(true);
      expect(reply).toEqual(response);
    }
  });

  it("answers a failure as a Failure review naming the object", async () => {
    const sent = structuredClone(docsV1) as SentReview & { request: { objects: Array<Record<string, unknown>> } };
    sent.request.objects[0]!.hostPort = "localhost";
    const { res, reply } = await convert(sent);
    expect(res.status).toBe(200);
    expect(reply.response.result).toEqual({
      status: "Failure",
      message:
        "object 0 (default/local-crontab, uid 3415a7fc-162b-4300-b5da-fd6083580d66) CronTab example.com/v1beta1 -> example.com/v1: hostPort could not be parsed into a separate host and port",
    });
  });

  it("converts the KEP's CronTab", async () => {
    const { verdict, reply } = await convert({
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "ConversionReview",
      request: {
        uid: "u",
        desiredAPIVersion: "stable.example.com/v2",
        objects: [
          {
            apiVersion: "stable.example.com/v1",
            kind: "CronTab",
            metadata: { name: "c" },
            spec: { cronSpec: "* * * * */5", image: "i" },
          },
        ],
      },
    });
    expect(verdict.ok).toBe(true);
    expect(reply.response.convertedObjects[0].spec).toEqual({
      image: "i",
      min: "*",
      hour: "*",
      dayOfMonth: "*",
      month: "*",
      dayOfWeek: "*/5",
    });
  });

  it("keeps integers beyond 2^53 byte-exact", async () => {
    const body = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u","desiredAPIVersion":"example.com/v1","objects":[{"apiVersion":"example.com/v1beta1","kind":"CronTab","metadata":{"name":"n"},"hostPort":"h:1","status":{"n":9223372036854775807}}]}}`;
    const res = await send(body);
    expect(await res.text()).toContain('"status":{"n":9223372036854775807}');
  });

  for (const [name, tree] of DEEP_TREES) {
    it(`converts ${name}, as deep as the apiserver stores them`, async () => {
      const body = deepReview(tree);
      const res = await send(body);
      const text = await res.text();
      expect(
        checkReply(decodeJson(body).value as SentReview, res.status, text, res.headers.get("content-type") ?? ""),
      ).toMatchObject({ ok: true });
      expect(text).toContain(`"convertedObjects":[${deepConverted(tree)}]`);
    });
  }

  const badInput: Array<[string, () => Promise<Response>, number]> = [
    ["malformed JSON", () => send("{"), 400],
    ["not a review", () => send('{"kind":"ConversionReview"}'), 400],
    [
      "objects not an array",
      () =>
        send(
          '{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u","desiredAPIVersion":"a.b/v1","objects":1}}',
        ),
      400,
    ],
    ["a body over the limit (64 KiB here)", () => send(`{"pad":"${"x".repeat(70000)}"}`), 413],
    // workerd then logs "Network connection lost" for the cut-off upload (workerd#1741): the
    // sender's side of answering early, which is what a limit is for.
    [
      "a body over the limit, without a length (streamed)",
      () =>
        SELF.fetch(URL_OK, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: stream("x".repeat(70000)),
        }),
      413,
    ],
    ["a form content type", () => send("a=b", { contentType: "application/x-www-form-urlencoded" }), 415],
    ["GET", () => send("", { method: "GET" }), 405],
    ["no token", () => send(JSON.stringify(docsV1), { url: "https://crdshift.test/convert" }), 404],
    [
      "a wrong token",
      () => send(JSON.stringify(docsV1), { url: "https://crdshift.test/convert/workers-test-token-0123456780" }),
      404,
    ],
  ];
  for (const [name, request, status] of badInput) {
    it(`refuses ${name} with ${status}`, async () => {
      const res = await request();
      expect(res.status).toBe(status);
      expect(Object.keys(await res.json())).toEqual(["error"]);
    });
  }

  // Handed to the Worker in this isolate: through SELF, a failing stream arrives as a short body.
  for (const [name, headers] of [
    ["with a length", { "Content-Length": "1000" }],
    ["streamed, without a length", {}],
  ] as const) {
    it(`answers an upload that breaks off (${name}) with 400, not 500`, async () => {
      const request = new Request(URL_OK, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body: brokenStream('{"apiVersion":'),
      });
      const res = await worker.fetch(request, env as unknown as Record<string, unknown>, createExecutionContext());
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: "the request body could not be read: the upload broke off or was malformed",
      });
    });
  }

  it("reads a body that starts with a UTF-8 byte order mark as the other platforms do", async () => {
    const res = await send(`\uFEFF${JSON.stringify(docsV1)}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(docsV1Response);
  });

  it("answers a scanned review (its reply written as bytes) with the bytes each object converts to alone, its length declared", async () => {
    // A small object size limit has a body this size scanned before it is parsed, as one over 1 MiB
    // is: its reply is printed into bytes as the objects convert.
    const scanning = createWorker(registry);
    const call = async (sent: SentReview) => {
      const request = new Request("https://crdshift.test/convert", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: `${JSON.stringify(sent)}\n`,
      });
      const res = await scanning.fetch(request, { CRDSHIFT_MAX_OBJECT_BYTES: "20000" }, createExecutionContext());
      return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
    };
    const objects = Array.from({ length: 120 }, (_, i) => ({
      ...docsV1.request.objects[0],
      metadata: { ...docsV1.request.objects[0]!.metadata, name: `crontab-\u00e9-${i}`, uid: `uid-${i}` },
      note: "\u2603\u{1F600}".repeat(200),
    }));
    const sent = { ...docsV1, request: { ...docsV1.request, objects } } as SentReview;
    expect(JSON.stringify(sent).length * 3).toBeGreaterThan(20000);
    const { res, bytes } = await call(sent);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe(String(bytes.byteLength));
    const text = new TextDecoder().decode(bytes);
    expect(checkReply(sent, 200, text, res.headers.get("content-type") ?? "").ok).toBe(true);
    // Byte for byte, the reply's objects are those a review of one object (parsed whole) gets.
    const alone = [];
    for (const object of objects) {
      const one = await call({ ...sent, request: { ...sent.request, objects: [object] } } as SentReview);
      alone.push(JSON.stringify(JSON.parse(new TextDecoder().decode(one.bytes)).response.convertedObjects[0]));
    }
    expect(text).toContain(`"convertedObjects":[${alone.join(",")}]`);
  });

  it("serves /healthz", async () => {
    const res = await SELF.fetch("https://crdshift.test/healthz");
    expect(await res.json()).toEqual({ status: "ok" });
  });
});

/** A body without Content-Length, sent in chunks on demand, as a chunked upload arrives. */
function stream(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, (offset += 8192)));
    },
  });
}

/** A body that sends a first chunk, then fails: an upload cut off mid-way. */
function brokenStream(first: string): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream({
    pull(controller) {
      if (sent) return controller.error(new Error("connection lost mid-upload"));
      sent = true;
      controller.enqueue(new TextEncoder().encode(first));
    },
  });
}
