import { describe, expect, it } from "vitest";
import { convertOk, cronTab, post, review, testApp, UID, wire } from "../helpers";

const docsReview = () => review("example.com/v1", [cronTab("v1beta1", "a", { hostPort: "h:1" })]);
const TOKEN = "s3cr3t-t0ken-AAAAAAAAAAAA";
const NEXT = "n3xt-t0ken-BBBBBBBBBBBBBB";

describe("HTTP: what is not a review is refused with a short JSON error", () => {
  const { app } = testApp({ env: { CRDSHIFT_BODY_LIMIT_BYTES: "4096" } });
  const cases: Array<[string, () => Promise<Response>, number, RegExp]> = [
    ["malformed JSON", () => post(app, '{"kind": "ConversionReview",'), 400, /not valid JSON/],
    ["a JSON array", () => post(app, "[]"), 400, /not a ConversionReview/],
    [
      "no request",
      () => post(app, wire({ apiVersion: "apiextensions.k8s.io/v1", kind: "ConversionReview" })),
      400,
      /request/,
    ],
    [
      "objects not an array",
      () =>
        post(app, wire({ ...docsReview(), request: { uid: UID, desiredAPIVersion: "example.com/v1", objects: {} } })),
      400,
      /request\.objects/,
    ],
    [
      "another review version",
      () => post(app, wire({ ...docsReview(), apiVersion: "apiextensions.k8s.io/v2" })),
      400,
      /apiVersion/,
    ],
    ["another kind", () => post(app, wire({ ...docsReview(), kind: "AdmissionReview" })), 400, /kind/],
    [
      "no uid",
      () => post(app, wire({ ...docsReview(), request: { desiredAPIVersion: "example.com/v1", objects: [] } })),
      400,
      /uid/,
    ],
    ["an empty body", () => post(app, ""), 400, /not valid JSON/],
    [
      "a body over the limit",
      () => post(app, wire({ ...docsReview(), pad: "x".repeat(5000) })),
      413,
      /larger than the limit of 4096 bytes/,
    ],
    [
      "a form body",
      () => post(app, "a=b", { contentType: "application/x-www-form-urlencoded" }),
      415,
      /Content-Type: application\/json/,
    ],
    ["no content type", () => post(app, wire(docsReview()), { contentType: null }), 415, /application\/json/],
    ["YAML", () => post(app, "kind: ConversionReview", { contentType: "application/yaml" }), 415, /application\/json/],
    ["GET", async () => app.request("http://x/convert"), 405, /POST/],
    ["PUT", () => post(app, wire(docsReview()), { method: "PUT" }), 405, /POST/],
    ["an unknown path", () => post(app, wire(docsReview()), { path: "/convertx" }), 404, /not found/],
  ];
  for (const [name, send, status, message] of cases) {
    it(`${name} -> ${status}`, async () => {
      const res = await send();
      expect(res.status).toBe(status);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      const body = await res.json();
      expect(body.error).toMatch(message);
      expect(JSON.stringify(body)).not.toMatch(/\n\s+at /); // no stack trace
    });
  }

  it("405 says which method is allowed", async () => {
    const res = await app.request("http://x/convert", { method: "DELETE" });
    expect(res.headers.get("allow")).toBe("POST");
  });

  it("accepts application/json with parameters, as a proxy may add them", async () => {
    const res = await post(app, wire(docsReview()), { contentType: "application/json; charset=utf-8" });
    expect(res.status).toBe(200);
  });

  it("logs the rejections without the body", async () => {
    // Its own app: run alone (-t) or in any order, it sees only its own requests.
    const own = testApp({ env: { CRDSHIFT_BODY_LIMIT_BYTES: "4096" } });
    const padded = "x".repeat(5000);
    expect((await post(own.app, `{"kind": "ConversionReview", "pad": "${padded}`)).status).toBe(413);
    expect((await post(own.app, `{"kind": "ConversionReview", "pad": "${"x".repeat(200)}`)).status).toBe(400);
    expect(own.logs.map((r) => r.status)).toEqual([413, 400]);
    expect(JSON.stringify(own.logs)).not.toContain("x".repeat(100));
  });
});

describe("HTTP: a review with a bad object is a Failure, not an HTTP error", () => {
  it("names the index of an object that is not an object", async () => {
    const { app } = testApp();
    const sent = review("example.com/v1", [cronTab("v1beta1", "a", { hostPort: "h:1" }), "nope"]);
    const res = await post(app, wire(sent));
    expect(res.status).toBe(200);
    const reply = await res.json();
    expect(reply.response.result).toEqual({ status: "Failure", message: "object 1 is not a JSON object but a string" });
    expect(reply.response.uid).toBe(UID);
  });

  it("answers an empty batch with an empty success", async () => {
    const { app } = testApp();
    const { reply } = await convertOk(app, review("example.com/v1", []));
    expect(reply.response.convertedObjects).toEqual([]);
  });
});

describe("HTTP: a body that cannot be read is the caller's fault", () => {
  /** A body that sends a first chunk, then fails: an upload cut off, or chunks that do not parse. */
  const broken = () => {
    let sent = false;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) return controller.error(new Error("aborted"));
        sent = true;
        controller.enqueue(new TextEncoder().encode('{"apiVersion":'));
      },
    });
  };
  for (const [name, headers] of [
    ["with a length", { "Content-Length": "1000" }],
    ["streamed, without a length", { "Transfer-Encoding": "chunked" }],
  ] as const) {
    it(`${name}: 400 and a warning, never a 500 or an error line`, async () => {
      const { app, logs } = testApp();
      const request = new Request("http://crdshift.test/convert", {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body: broken(),
        duplex: "half",
      } as RequestInit);
      const res = await app.request(request);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: "the request body could not be read: the upload broke off or was malformed",
      });
      expect(logs).toEqual([
        {
          level: "warn",
          msg: "request rejected",
          status: 400,
          reason: "body-unreadable",
          error: expect.any(String),
          detail: "Error: aborted",
        },
      ]);
    });
  }
});

describe("HTTP: health", () => {
  it("GET /healthz answers ok", async () => {
    const { app } = testApp({ env: { CRDSHIFT_TOKEN: TOKEN } });
    const res = await app.request("http://x/healthz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });
});

describe("HTTP: the path token", () => {
  const env = { CRDSHIFT_TOKEN: TOKEN, CRDSHIFT_TOKEN_NEXT: NEXT, CRDSHIFT_LOG_REVIEWS: "all" };
  const { app } = testApp({ env });

  it("converts at /convert/<token>, with the apiserver's query", async () => {
    await convertOk(app, docsReview(), `/convert/${TOKEN}?timeout=30s`);
  });

  it("also accepts the next token, for rotation without downtime", async () => {
    await convertOk(app, docsReview(), `/convert/${NEXT}?timeout=30s`);
  });

  for (const [name, path] of [
    ["missing", "/convert"],
    ["wrong", "/convert/AAAAAAAAAAAAAAAAAAAAAAAAA"],
    ["a prefix of the token", `/convert/${TOKEN.slice(0, -1)}`],
    ["the token plus more", `/convert/${TOKEN}x`],
    ["in another segment", `/convert/x/${TOKEN}`],
  ]) {
    it(`answers 404 when the token is ${name}, before reading the body or the method`, async () => {
      for (const method of ["POST", "GET"]) {
        const res = await app.request(`http://x${path}`, {
          method,
          headers: { "Content-Type": "application/json" },
          ...(method === "POST" ? { body: "{" } : {}),
        });
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({ error: "not found" });
      }
    });
  }

  it("never writes the token to the logs", async () => {
    // Its own app: run alone (-t) or in any order, it sees only its own requests.
    const { app, logs } = testApp({ env });
    await convertOk(app, docsReview(), `/convert/${TOKEN}?timeout=30s`);
    await convertOk(app, docsReview(), `/convert/${NEXT}?timeout=30s`);
    expect((await post(app, wire(docsReview()), { path: `/convert/${TOKEN}x` })).status).toBe(404);
    expect(logs.filter((r) => r.msg === "review converted")).toHaveLength(2);
    const text = JSON.stringify(logs);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(NEXT);
  });

  it("answers 404 at /convert/<anything> when no token is configured", async () => {
    const { app } = testApp();
    const res = await post(app, wire(docsReview()), { path: `/convert/${TOKEN}` });
    expect(res.status).toBe(404);
  });
});
