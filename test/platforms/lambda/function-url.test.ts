import fc from "fast-check";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { installLightResponse } from "../../../src/platforms/lambda/function-url-global-response";
import { handleFunctionUrl, toRequest, toResult } from "../../../src/platforms/lambda/function-url-handle";
import { LightHeaders } from "../../../src/platforms/lambda/function-url-headers";
import { LightResponse } from "../../../src/platforms/lambda/function-url-light-response";
import { functionUrlEvent } from "../../bundles/lambda";
import { runs } from "../../property-runs";

// Node's own Response, kept before the light one is installed (tests below install it).
const NativeResponse = globalThis.Response;
const NativeHeaders = globalThis.Headers;

/** A Headers' pairs in iteration order (forEach, which the DOM typings without DOM.Iterable have). */
function pairs(headers: Headers): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  headers.forEach((value, key) => {
    out.push([key, value]);
  });
  return out;
}

const name = fc.constantFrom(
  "Content-Type",
  "content-type",
  "X-Thing",
  "x-THING",
  "set-cookie",
  "Set-Cookie",
  "accept",
  "Allow",
);
const value = fc.stringMatching(/^[ \t]?[!-~]([ !-~]{0,10}[!-~])?[ \t]?$/);
const operation = fc.oneof(
  fc.tuple(fc.constant("append" as const), name, value),
  fc.tuple(fc.constant("set" as const), name, value),
  fc.tuple(fc.constant("delete" as const), name, fc.constant("")),
);

describe("LightHeaders", () => {
  it("behaves as Node's Headers for any sequence of appends, sets and deletes", () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 12 }), (operations) => {
        const light = new LightHeaders();
        const native = new NativeHeaders();
        for (const [op, n, v] of operations) {
          if (op === "delete") (light.delete(n), native.delete(n));
          else (light[op](n, v), native[op](n, v));
        }
        expect(pairs(light)).toEqual(pairs(native));
        for (const n of ["content-type", "X-Thing", "set-cookie", "allow"]) {
          expect(light.get(n)).toBe(native.get(n));
          expect(light.has(n)).toBe(native.has(n));
        }
        expect(light.getSetCookie()).toEqual(native.getSetCookie());
        expect(pairs(new LightHeaders(light))).toEqual(pairs(new NativeHeaders(native)));
      }),
      { numRuns: runs(500) },
    );
  });

  it("refuses what Node refuses: a name that is not a token, a value with a line break", () => {
    expect(() => new LightHeaders().set("bad name", "x")).toThrow(TypeError);
    expect(() => new LightHeaders().set("x", "a\r\nInjected: yes")).toThrow(TypeError);
  });

  it("takes a record (with arrays), pairs, or another Headers", () => {
    expect(pairs(new LightHeaders({ A: "1", "Set-Cookie": ["x=1", "y=2"] }))).toEqual([
      ["a", "1"],
      ["set-cookie", "x=1"],
      ["set-cookie", "y=2"],
    ]);
    expect(new LightHeaders([["B", "2"]]).get("b")).toBe("2");
    expect(new LightHeaders(new NativeHeaders({ C: "3" })).get("c")).toBe("3");
  });
});

describe("LightResponse", () => {
  it("gives what Node's Response gives for text, bytes and no body", async () => {
    const cases: Array<[unknown, ResponseInit | undefined]> = [
      ['{"a":1}', { status: 200, headers: { "Content-Type": "application/json" } }],
      ["plain", undefined],
      [new Uint8Array([104, 105]), { status: 404, statusText: "Nope" }],
      [null, { status: 405, headers: [["Allow", "POST"]] }],
    ];
    for (const [body, init] of cases) {
      const light = new LightResponse(body, init);
      const native = new NativeResponse(body as BodyInit, init);
      expect([light.status, light.statusText, light.ok, pairs(light.headers)]).toEqual([
        native.status,
        native.statusText,
        native.ok,
        pairs(native.headers),
      ]);
      expect(await light.clone().text()).toBe(await native.clone().text());
      expect(new Uint8Array(await light.arrayBuffer())).toEqual(new Uint8Array(await native.arrayBuffer()));
      expect(light.bodyUsed).toBe(native.bodyUsed);
    }
  });

  it("reads a body once, as Node's does", async () => {
    const light = new LightResponse("once");
    expect(await light.text()).toBe("once");
    await expect(light.text()).rejects.toThrow(TypeError);
    expect(() => light.clone()).toThrow(TypeError);
  });

  it("refuses statuses Node refuses", () => {
    expect(() => new LightResponse("x", { status: 99 })).toThrow(RangeError);
    expect(() => new LightResponse("x", { status: 204 })).toThrow(TypeError);
  });

  it("copies status and headers from another response (Hono answers HEAD that way)", () => {
    const copy = new LightResponse(null, new LightResponse("x", { status: 201, headers: { "X-A": "1" } }));
    expect([copy.status, copy.headers.get("x-a")]).toEqual([201, "1"]);
  });

  it("makes JSON responses as Response.json does", async () => {
    const light = LightResponse.json({ a: 1 }, { status: 400 });
    const native = NativeResponse.json({ a: 1 }, { status: 400 });
    expect([light.status, pairs(light.headers), await light.text()]).toEqual([
      native.status,
      pairs(native.headers),
      await native.text(),
    ]);
  });

  it("once installed, is the global Response and carries what is not in memory itself; Node's own responses are Responses too", async () => {
    installLightResponse();
    expect(globalThis.Response).toBe(LightResponse);
    const streamed = new Response(new Blob(["blob body"], { type: "text/x-blob" }));
    expect(streamed).toBeInstanceOf(LightResponse);
    expect(streamed.headers.get("content-type")).toBe("text/x-blob");
    expect(await streamed.text()).toBe("blob body");
    expect(streamed instanceof Response).toBe(true);
    expect(new Response("light") instanceof Response).toBe(true);
    expect(new NativeResponse("native") instanceof Response).toBe(true);
    expect({} instanceof Response).toBe(false);
  });
});

/** A body of each kind fetch takes, described so that it can be made twice (streams are read once). */
type BodyRecipe =
  | { kind: "null" }
  | { kind: "string"; text: string }
  | { kind: "bytes" | "arrayBuffer" | "dataView" | "buffer"; bytes: number[] }
  | { kind: "params"; pairs: Array<[string, string]> }
  | { kind: "blob"; parts: string[]; type: string }
  | { kind: "stream"; chunks: number[][] }
  | { kind: "iterable"; chunks: Array<string | number[]> }
  | { kind: "number"; value: number };

function makeBody(recipe: BodyRecipe): unknown {
  switch (recipe.kind) {
    case "null":
      return null;
    case "string":
      return recipe.text;
    case "bytes":
      return new Uint8Array(recipe.bytes);
    case "arrayBuffer":
      return new Uint8Array(recipe.bytes).buffer;
    case "dataView": {
      // A view into the middle of a larger buffer: only its own bytes are the body.
      const padded = new Uint8Array([9, ...recipe.bytes, 9]);
      return new DataView(padded.buffer, 1, recipe.bytes.length);
    }
    case "buffer":
      return Buffer.from(recipe.bytes);
    case "params":
      return new URLSearchParams(recipe.pairs);
    case "blob":
      return new Blob(recipe.parts, { type: recipe.type });
    case "stream":
      return new ReadableStream({
        start(controller) {
          for (const chunk of recipe.chunks) controller.enqueue(new Uint8Array(chunk));
          controller.close();
        },
      });
    case "iterable":
      return (async function* () {
        for (const chunk of recipe.chunks) yield typeof chunk === "string" ? chunk : new Uint8Array(chunk);
      })();
    case "number":
      return recipe.value;
  }
}

const byteArray = fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 12 });
const text = fc.string({ unit: "grapheme", maxLength: 12 });
const bodyRecipe: fc.Arbitrary<BodyRecipe> = fc.oneof(
  fc.constant({ kind: "null" as const }),
  text.map((t) => ({ kind: "string" as const, text: t })),
  fc
    .tuple(fc.constantFrom("bytes" as const, "arrayBuffer" as const, "dataView" as const, "buffer" as const), byteArray)
    .map(([kind, bytes]) => ({ kind, bytes })),
  fc.array(fc.tuple(text, text), { maxLength: 3 }).map((pairs) => ({ kind: "params" as const, pairs })),
  fc
    .tuple(fc.array(text, { maxLength: 3 }), fc.constantFrom("", "text/x-blob", "application/json"))
    .map(([parts, type]) => ({ kind: "blob" as const, parts, type })),
  fc.array(byteArray, { maxLength: 3 }).map((chunks) => ({ kind: "stream" as const, chunks })),
  // Non-empty chunks: Node's own Response stalls on an empty one (see the test below).
  fc
    .array(
      fc.oneof(
        fc.string({ unit: "grapheme", minLength: 1, maxLength: 6 }),
        byteArray.filter((b) => b.length > 0),
      ),
      { maxLength: 3 },
    )
    .map((chunks) => ({ kind: "iterable" as const, chunks })),
  fc.double().map((value) => ({ kind: "number" as const, value })),
);
const responseInit = fc.record(
  {
    status: fc.constantFrom(200, 201, 400, 404, 500),
    statusText: fc.constantFrom("", "OK", "Nope"),
    headers: fc.constantFrom<Record<string, string>>({}, { "Content-Type": "application/json" }, { "X-A": "1" }),
  },
  { requiredKeys: [] },
);

describe("LightResponse with every kind of body", () => {
  it("gives what Node's Response gives: status, headers, content type, body read, and a clone's body", async () => {
    await fc.assert(
      fc.asyncProperty(bodyRecipe, responseInit, fc.boolean(), async (recipe, init, asBytes) => {
        const light = new LightResponse(makeBody(recipe), init);
        const native = new NativeResponse(makeBody(recipe) as BodyInit, init);
        expect([light.status, light.statusText, light.ok, light.type, pairs(light.headers)]).toEqual([
          native.status,
          native.statusText,
          native.ok,
          native.type,
          pairs(native.headers),
        ]);
        expect(light.body === null).toBe(native.body === null);
        const [lightClone, nativeClone] = [light.clone(), native.clone()];
        if (asBytes)
          expect(new Uint8Array(await light.arrayBuffer())).toEqual(new Uint8Array(await native.arrayBuffer()));
        else expect(await light.text()).toBe(await native.text());
        expect(light.bodyUsed).toBe(native.bodyUsed);
        expect(await lightClone.text()).toBe(await nativeClone.text());
      }),
      { numRuns: runs(300) },
    );
  });

  it("sends the bytes a view held when the response was made, as Node's does", async () => {
    const bytes = new Uint8Array([104, 105]);
    const light = new LightResponse(bytes);
    bytes[0] = 0;
    expect(await light.text()).toBe("hi");
  });

  it("reads an async iterable's empty chunks as nothing (where Node's own Response never finishes reading)", async () => {
    const chunks = async function* () {
      yield "";
      yield new Uint8Array(0);
      yield "a";
      yield "";
    };
    expect(await new LightResponse(chunks()).text()).toBe("a");
  });

  it("refuses a stream that is being read already, as Node's does", () => {
    const stream = new ReadableStream();
    stream.getReader();
    expect(() => new NativeResponse(stream)).toThrow(TypeError);
    expect(() => new LightResponse(stream)).toThrow(TypeError);
  });

  it("fails reading a stream that yields something other than bytes, as Node's does", async () => {
    const strings = () => new ReadableStream({ start: (c) => (c.enqueue("not bytes"), c.close()) });
    await expect(new NativeResponse(strings()).text()).rejects.toThrow(TypeError);
    await expect(new LightResponse(strings()).text()).rejects.toThrow(/Uint8Array chunks/);
  });

  it("refuses a FormData body with a TypeError that says why", () => {
    const form = new FormData();
    form.append("a", "1");
    expect(() => new LightResponse(form)).toThrow(/cannot send a FormData body.*send the form as text or bytes/);
  });

  it("makes redirects as Response.redirect does, absolute URLs only", () => {
    for (const [url, status] of [
      ["https://example.com/a b?q=1#f", 301],
      [new URL("http://example.com:8080/x"), 307],
      ["https://example.com/", undefined],
      ["https://example.com/", 302 + 65536],
    ] as const) {
      const light = LightResponse.redirect(url, status);
      const native = NativeResponse.redirect(url, status);
      expect([light.status, light.type, light.ok, light.body, pairs(light.headers)]).toEqual([
        native.status,
        native.type,
        native.ok,
        native.body,
        pairs(native.headers),
      ]);
      expect(() => light.headers.set("location", "https://elsewhere.example/")).toThrow(TypeError);
      expect(() => native.headers.set("location", "https://elsewhere.example/")).toThrow(TypeError);
    }
    for (const [url, status, error] of [
      ["/relative", 302, TypeError],
      ["https://example.com/", 200, RangeError],
      ["https://example.com/", 304, RangeError],
    ] as const) {
      expect(() => NativeResponse.redirect(url, status)).toThrow(error);
      expect(() => LightResponse.redirect(url, status)).toThrow(error);
    }
  });

  it("makes network errors as Response.error does, and clones them", async () => {
    const light = LightResponse.error();
    const native = NativeResponse.error();
    const shape = (r: Response | LightResponse) => [r.type, r.status, r.statusText, r.ok, r.body, pairs(r.headers)];
    expect(shape(light)).toEqual(shape(native));
    expect(shape(light.clone())).toEqual(shape(native.clone()));
    expect(() => light.clone().headers.append("x-a", "1")).toThrow(TypeError);
    expect(() => native.clone().headers.append("x-a", "1")).toThrow(TypeError);
    expect(await light.text()).toBe(await native.text());
  });
});

describe("function URL events and results", () => {
  it("makes the request the function URL describes: method, URL with query, headers, decoded body and its true length", async () => {
    const event = {
      ...functionUrlEvent({ path: "/convert/t", body: "héllo", base64: true, query: "a=1&b=2" }),
      cookies: ["x=1", "y=2"],
    };
    event.headers["content-length"] = "999";
    (event.headers as Record<string, string>)["transfer-encoding"] = "chunked";
    const request = toRequest(event);
    expect(request.method).toBe("POST");
    expect(request.url).toBe(`https://${event.requestContext.domainName}/convert/t?a=1&b=2`);
    expect(request.headers.get("content-length")).toBe(String(Buffer.byteLength("héllo")));
    expect(request.headers.has("transfer-encoding")).toBe(false);
    expect(request.headers.get("cookie")).toBe("x=1; y=2");
    expect(await request.text()).toBe("héllo");
  });

  it("leaves a request without a body without one", async () => {
    const request = toRequest(functionUrlEvent({ path: "/healthz", method: "GET" }));
    expect([request.body, request.headers.has("content-length"), await request.text()]).toEqual([null, false, ""]);
  });

  it("returns JSON and text as text, anything else as base64, and cookies apart", async () => {
    const json = await toResult(
      new LightResponse('{"a":1}', { headers: { "content-type": "application/json" } }) as unknown as Response,
    );
    expect(json).toEqual({
      statusCode: 200,
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
      isBase64Encoded: false,
    });
    const headers = new LightHeaders({ "content-type": "application/octet-stream" });
    headers.append("set-cookie", "a=1");
    headers.append("set-cookie", "b=2");
    const binary = await toResult(
      new LightResponse(new Uint8Array([0, 255]), { status: 201, headers }) as unknown as Response,
    );
    expect(binary).toEqual({
      statusCode: 201,
      headers: { "content-type": "application/octet-stream" },
      cookies: ["a=1", "b=2"],
      body: "AP8=",
      isBase64Encoded: true,
    });
  });

  it("reads a streamed body to its end for the result", async () => {
    const chunks = (...parts: string[]) =>
      new ReadableStream({
        start(controller) {
          for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
          controller.close();
        },
      });
    const json = await toResult(
      new LightResponse(chunks('{"a":', "1}"), {
        headers: { "content-type": "application/json" },
      }) as unknown as Response,
    );
    expect([json.body, json.isBase64Encoded]).toEqual(['{"a":1}', false]);
    const binary = await toResult(new LightResponse(chunks("\u0000", "\u00ff")) as unknown as Response);
    expect([binary.body, binary.isBase64Encoded]).toEqual([Buffer.from("\u0000\u00ff").toString("base64"), true]);
  });

  it("answers 400 to a header that Node's fetch would refuse, without calling the app", async () => {
    let called = false;
    const app = new Hono().all("*", (c) => ((called = true), c.text("no")));
    const event = functionUrlEvent({ path: "/convert", body: "{}" });
    (event.headers as Record<string, string>)["x-bad"] = "a\nb";
    const result = await handleFunctionUrl(app)(event, { getRemainingTimeInMillis: () => 1000 });
    expect([result.statusCode, JSON.parse(result.body).error, called]).toEqual([
      400,
      "invalid request: invalid header value",
      false,
    ]);
  });

  it("does not repeat a huge header name in its 400", async () => {
    const app = new Hono().all("*", (c) => c.text("no"));
    const event = functionUrlEvent({ path: "/convert", body: "{}" });
    (event.headers as Record<string, string>)[`x bad ${"n".repeat(1024 * 1024)}`] = "1";
    const result = await handleFunctionUrl(app)(event, { getRemainingTimeInMillis: () => 1000 });
    expect(result.statusCode).toBe(400);
    expect(JSON.parse(result.body).error).toMatch(
      /^invalid request: invalid header name: "x bad n+"\.\.\. \(\d+ more characters\)$/,
    );
    expect(result.body.length).toBeLessThan(1024);
  });

  it("reads a text body with a byte order mark as its bytes would read: without one leading mark", async () => {
    // The Fetch standard's text() (UTF-8 decode) drops one leading mark, as @hono/node-server's
    // TextDecoder does. (Node 20's own Request drops two: not the reference.)
    const utf8Decode = (text: string) => new TextDecoder().decode(new TextEncoder().encode(text));
    for (const body of ["\uFEFF{}", "\uFEFF\uFEFF{}", "{\uFEFF}", "\uFEFF"]) {
      expect(await toRequest(functionUrlEvent({ path: "/", body })).text()).toBe(utf8Decode(body));
      expect(await toRequest(functionUrlEvent({ path: "/", body, base64: true })).text()).toBe(utf8Decode(body));
      expect(await new LightResponse(body).text()).toBe(utf8Decode(body));
    }
    expect(await toRequest(functionUrlEvent({ path: "/", body: '\uFEFF{"a":1}' })).json()).toEqual({ a: 1 });
  });

  it("gives the app the event, its requestContext and the invocation context", async () => {
    installLightResponse();
    const app = new Hono<{
      Bindings: {
        requestContext: { http: { sourceIp: string } };
        lambdaContext: { getRemainingTimeInMillis(): number };
      };
    }>();
    app.post("/echo", async (c) =>
      c.json({
        ip: c.env.requestContext.http.sourceIp,
        left: c.env.lambdaContext.getRemainingTimeInMillis(),
        body: await c.req.text(),
      }),
    );
    const handler = handleFunctionUrl(app as unknown as Hono);
    const result = await handler(functionUrlEvent({ path: "/echo", body: "hi", sourceIp: "192.0.2.1" }), {
      getRemainingTimeInMillis: () => 1234,
    });
    expect(JSON.parse(result.body)).toEqual({ ip: "192.0.2.1", left: 1234, body: "hi" });
  });
});
