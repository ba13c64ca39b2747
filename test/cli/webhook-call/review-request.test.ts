import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { goJson } from "../../../src/cli/webhook-call/go-json";
import { createPoster } from "../../../src/cli/webhook-call/post-review";
import { apiserverUrl, redactUrl, reviewRequest } from "../../../src/cli/webhook-call/review-request";
import { type LocalServer, serveRaw } from "../local-server";

describe("goJson: what Go's encoder prints", () => {
  it("sorts map keys at every level, compact, with HTML-sensitive characters escaped", () => {
    expect(goJson({ b: 1, a: { d: "<&>", c: [true, null] } })).toBe(
      '{"a":{"c":[true,null],"d":"\\u003c\\u0026\\u003e"},"b":1}',
    );
    expect(goJson("\u2028\u2029")).toBe('"\\u2028\\u2029"');
    expect(goJson({ n: 12345678901234567890n })).toBe('{"n":12345678901234567890}');
  });

  it("orders keys by code point, as Go orders UTF-8 bytes (not by UTF-16 units)", () => {
    // U+FF5E sorts before U+1F600 in UTF-8, after it in UTF-16.
    expect(goJson({ "😀": 1, "～": 2 })).toBe('{"～":2,"😀":1}');
  });

  it("is JSON that reads back as the same value, keys in sorted order", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = goJson(value);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(text).not.toMatch(/[<>&\u2028\u2029]/);
      }),
    );
  });
});

describe("reviewRequest: the body the apiserver sends", () => {
  it("has the envelope of a captured apiserver request: struct order, the empty response stanza, a trailing newline", () => {
    const captured = JSON.parse(
      readFileSync(new URL("../../fixtures/kube-rs-simple-v1.json", import.meta.url), "utf8"),
    );
    const { body, review } = reviewRequest(captured.request.desiredAPIVersion, captured.request.objects);
    expect(body.endsWith("}\n")).toBe(true);
    expect(Object.keys(JSON.parse(body))).toEqual(Object.keys(captured));
    expect(JSON.parse(body).response).toEqual(captured.response);
    expect(JSON.parse(body).request.objects).toEqual(captured.request.objects);
    expect(
      body.startsWith(
        `{"kind":"ConversionReview","apiVersion":"apiextensions.k8s.io/v1","request":{"uid":"${review.request.uid}","desiredAPIVersion"`,
      ),
    ).toBe(true);
    expect(review.request.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("cleans the path as Go's path.Join does and adds ?timeout=30s", () => {
    expect(apiserverUrl("https://h.example/convert/").href).toBe("https://h.example/convert?timeout=30s");
    expect(apiserverUrl("https://h.example//a//b").href).toBe("https://h.example/a/b?timeout=30s");
    expect(apiserverUrl("https://h.example").href).toBe("https://h.example/?timeout=30s");
  });

  it("hides the path token in what it prints", () => {
    expect(redactUrl("https://h.example/convert/s3cr3t-t0ken-AAAAAAAAAAAA")).toBe("https://h.example/convert/<token>");
  });
});

describe("createPoster: the apiserver's HTTP call", () => {
  let server: LocalServer;
  let seen: { method?: string; url?: string; headers?: Record<string, unknown>; body?: string } = {};
  beforeAll(async () => {
    server = await serveRaw((req, res, body) => {
      seen = { method: req.method!, url: req.url!, headers: req.headers, body };
      if (req.url!.startsWith("/gzip-bomb"))
        res.writeHead(200, { "Content-Encoding": "gzip" }).end(gzipSync(Buffer.alloc(64 * 1024 * 1024 + 1, 0x20)));
      else if (req.url!.startsWith("/gzip"))
        res.writeHead(200, { "Content-Encoding": "gzip" }).end(gzipSync('{"zipped":true}'));
      else res.writeHead(200, { "Content-Type": "application/json" }).end('{"ok":true}');
    });
  });
  afterAll(() => server.close());

  it("posts with the apiserver's headers, query and buffered body", async () => {
    const poster = createPoster(`${server.origin}/convert/`);
    const request = reviewRequest("example.com/v1", [
      { apiVersion: "example.com/v1beta1", kind: "CronTab", metadata: { name: "a" } },
    ]);
    const result = await poster.post(request);
    poster.close();
    expect(result).toMatchObject({ ok: true, status: 200, body: '{"ok":true}', contentType: "application/json" });
    expect(seen.method).toBe("POST");
    expect(seen.url).toBe("/convert?timeout=30s");
    expect(seen.body).toBe(request.body);
    expect(seen.headers).toMatchObject({
      "content-type": "application/json",
      accept: "application/json, */*",
      "accept-encoding": "gzip",
      "user-agent": "kube-apiserver-admission",
      "content-length": String(Buffer.byteLength(request.body)),
    });
    expect(seen.headers!["transfer-encoding"]).toBeUndefined();
  });

  it("reads a gzip reply, as Go's transport does for the Accept-Encoding it added", async () => {
    const poster = createPoster(`${server.origin}/gzip`);
    const result = await poster.post(reviewRequest("example.com/v1", [{}]));
    poster.close();
    expect(result).toMatchObject({ ok: true, body: '{"zipped":true}' });
  });

  it("holds a gzip reply to the same 64 MiB once unpacked, not only as sent", async () => {
    const poster = createPoster(`${server.origin}/gzip-bomb`);
    const result = await poster.post(reviewRequest("example.com/v1", [{}]));
    poster.close();
    expect(result).toMatchObject({
      ok: false,
      error: `Post "${server.origin}/gzip-bomb?timeout=30s": the reply is larger than 67108864 bytes once unzipped`,
    });
  });
});
