import fc from "fast-check";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { handleFunctionUrl, toRequest, toResult } from "../../src/adapter/function-url/handle";
import { LightHeaders } from "../../src/adapter/function-url/headers";
import { installLightResponse, LightResponse } from "../../src/adapter/function-url/response";
import { functionUrlEvent } from "../bundles/lambda";

// Node's own Response, kept before the light one is installed (tests below install it).
const NativeResponse = globalThis.Response;
const NativeHeaders = globalThis.Headers;

/** A Headers' pairs in iteration order (forEach, which the DOM typings without DOM.Iterable have). */
function pairs(headers: Headers): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  headers.forEach((value, key) => out.push([key, value]));
  return out;
}

const name = fc.constantFrom("Content-Type", "content-type", "X-Thing", "x-THING", "set-cookie", "Set-Cookie", "accept", "Allow");
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
      { numRuns: 500 },
    );
  });

  it("refuses what Node refuses: a name that is not a token, a value with a line break", () => {
    expect(() => new LightHeaders().set("bad name", "x")).toThrow(TypeError);
    expect(() => new LightHeaders().set("x", "a\r\nInjected: yes")).toThrow(TypeError);
  });

  it("takes a record (with arrays), pairs, or another Headers", () => {
    expect(pairs(new LightHeaders({ A: "1", "Set-Cookie": ["x=1", "y=2"] }))).toEqual([["a", "1"], ["set-cookie", "x=1"], ["set-cookie", "y=2"]]);
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
      expect([light.status, light.statusText, light.ok, pairs(light.headers)]).toEqual([native.status, native.statusText, native.ok, pairs(native.headers)]);
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
    expect([light.status, pairs(light.headers), await light.text()]).toEqual([native.status, pairs(native.headers), await native.text()]);
  });

  it("once installed, hands bodies it does not hold to Node's Response, and both are Responses", async () => {
    installLightResponse();
    expect(globalThis.Response).toBe(LightResponse);
    const streamed = new Response(new Blob(["blob body"]));
    expect(streamed).toBeInstanceOf(NativeResponse);
    expect(await streamed.text()).toBe("blob body");
    expect(streamed instanceof Response).toBe(true);
    expect(new Response("light") instanceof Response).toBe(true);
    expect({} instanceof Response).toBe(false);
  });
});

describe("function URL events and results", () => {
  it("makes the request the function URL describes: method, URL with query, headers, decoded body and its true length", async () => {
    const event = { ...functionUrlEvent({ path: "/convert/t", body: "héllo", base64: true, query: "a=1&b=2" }), cookies: ["x=1", "y=2"] };
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
    const json = await toResult(new LightResponse('{"a":1}', { headers: { "content-type": "application/json" } }) as unknown as Response);
    expect(json).toEqual({ statusCode: 200, headers: { "content-type": "application/json" }, body: '{"a":1}', isBase64Encoded: false });
    const headers = new LightHeaders({ "content-type": "application/octet-stream" });
    headers.append("set-cookie", "a=1");
    headers.append("set-cookie", "b=2");
    const binary = await toResult(new LightResponse(new Uint8Array([0, 255]), { status: 201, headers }) as unknown as Response);
    expect(binary).toEqual({ statusCode: 201, headers: { "content-type": "application/octet-stream" }, cookies: ["a=1", "b=2"], body: "AP8=", isBase64Encoded: true });
  });

  it("answers 400 to a header that Node's fetch would refuse, without calling the app", async () => {
    let called = false;
    const app = new Hono().all("*", (c) => ((called = true), c.text("no")));
    const event = functionUrlEvent({ path: "/convert", body: "{}" });
    (event.headers as Record<string, string>)["x-bad"] = "a\nb";
    const result = await handleFunctionUrl(app)(event, { getRemainingTimeInMillis: () => 1000 });
    expect([result.statusCode, JSON.parse(result.body).error, called]).toEqual([400, "invalid request: invalid header value", false]);
  });

  it("does not repeat a huge header name in its 400", async () => {
    const app = new Hono().all("*", (c) => c.text("no"));
    const event = functionUrlEvent({ path: "/convert", body: "{}" });
    (event.headers as Record<string, string>)[`x bad ${"n".repeat(1024 * 1024)}`] = "1";
    const result = await handleFunctionUrl(app)(event, { getRemainingTimeInMillis: () => 1000 });
    expect(result.statusCode).toBe(400);
    expect(JSON.parse(result.body).error).toMatch(/^invalid request: invalid header name: "x bad n+"\.\.\. \(\d+ more characters\)$/);
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
    const app = new Hono<{ Bindings: { requestContext: { http: { sourceIp: string } }; lambdaContext: { getRemainingTimeInMillis(): number } } }>();
    app.post("/echo", async (c) => c.json({ ip: c.env.requestContext.http.sourceIp, left: c.env.lambdaContext.getRemainingTimeInMillis(), body: await c.req.text() }));
    const handler = handleFunctionUrl(app as unknown as Hono);
    const result = await handler(functionUrlEvent({ path: "/echo", body: "hi", sourceIp: "192.0.2.1" }), { getRemainingTimeInMillis: () => 1234 });
    expect(JSON.parse(result.body)).toEqual({ ip: "192.0.2.1", left: 1234, body: "hi" });
  });
});
