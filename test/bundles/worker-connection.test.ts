import { existsSync, readFileSync } from "node:fs";
import { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpRequest, rawConnection } from "../raw-http";

/**
 * The built Worker in workerd, over HTTP on 127.0.0.1: workerd drops a kept-alive connection
 * whose request body the Worker left unread, so every refusal must read (drain) it first.
 */
const BUNDLE = new URL("../../build/worker/worker.js", import.meta.url);
const TOKEN = "connection-test-token-0123456789";
const AT_TOKEN = `/convert/${TOKEN}`;
const docsV1 = readFileSync(new URL("../../examples/requests/docs-v1.json", import.meta.url), "utf8");
const JSON_TYPE = { "Content-Type": "application/json" };
const compatibilityDate = /^compatibility_date = "([^"]+)"/m.exec(
  readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8"),
)![1]!;

let mf: Miniflare;
let port: number;

beforeAll(async () => {
  if (!existsSync(BUNDLE))
    throw new Error("build/worker/worker.js is missing: run `npm run build:worker` (npm test does)");
  mf = new Miniflare({
    modules: true,
    scriptPath: BUNDLE.pathname,
    modulesRules: [{ type: "ESModule", include: ["**/*.js"] }],
    compatibilityDate,
    bindings: { CRDSHIFT_TOKEN: TOKEN, CRDSHIFT_BODY_LIMIT_BYTES: "65536" },
    host: "127.0.0.1",
    port: 0,
  });
  port = Number((await mf.ready).port);
});
afterAll(() => mf?.dispose());

describe("the built Worker, in workerd: a refused request leaves its connection usable", () => {
  const refusals: Array<[string, string, number]> = [
    ["an unknown path", httpRequest("POST", "/nope", docsV1, JSON_TYPE), 404],
    ["a wrong token", httpRequest("POST", "/convert/wrong-token-0123456789abc", docsV1, JSON_TYPE), 404],
    ["a form body", httpRequest("POST", AT_TOKEN, docsV1, { "Content-Type": "text/plain" }), 415],
    ["a method other than POST", httpRequest("PUT", AT_TOKEN, docsV1, JSON_TYPE), 405],
  ];
  for (const [name, refused, status] of refusals) {
    it(`${name} (${status}), its body unread: the next request on the connection is answered`, async () => {
      const connection = await rawConnection(port);
      connection.write(refused);
      expect(await connection.responses(1)).toEqual([status]);
      connection.write(httpRequest("POST", AT_TOKEN, docsV1, JSON_TYPE));
      expect(await connection.responses(2)).toEqual([status, 200]);
      connection.socket.destroy();
    });
  }
});
