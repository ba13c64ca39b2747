import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main";
import { type LocalServer, serveRaw } from "../local-server";

const CLEAR = "\u001b[2J\u001b[H\r";
const object = {
  apiVersion: "example.com/v1beta1",
  kind: "CronTab",
  metadata: { name: "a", namespace: "default", uid: "uid-a" },
  hostPort: "localhost:1234",
};

let server: LocalServer;
beforeAll(async () => {
  // Fails every review with a megabyte of escape sequences; its object names bytes of its own.
  server = await serveRaw((_req, res, body) => {
    const uid = JSON.parse(body).request.uid as string;
    const message = `${CLEAR}${"\u009b31m\u202e".repeat(300_000)}`;
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        kind: "ConversionReview",
        apiVersion: "apiextensions.k8s.io/v1",
        response: { uid, result: { status: "Failure", message } },
      }),
    );
  });
});
afterAll(() => server.close());

async function diff(...args: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(["diff", "-f", "-", "--against", `${server.origin}/convert`, "--allow-http", ...args], {
    out: (t) => (stdout += t),
    err: (t) => (stderr += t),
    stdin: () => JSON.stringify({ ...object, metadata: { ...object.metadata, name: `a${CLEAR}` } }),
  });
  return { code, stdout, stderr };
}

describe("crdshift diff against a hostile webhook", { timeout: 60_000 }, () => {
  it("prints each failure clipped, with every control character escaped, in text and JSON", async () => {
    for (const output of ["text", "json"]) {
      const { code, stdout, stderr } = await diff("-o", output);
      expect(code).toBe(1);
      expect(stderr).toBe("");
      // C0 and C1 controls, and the bidi override, appear only as escapes.
      expect(stdout.replace(/\n/g, "")).not.toMatch(/[\p{Cc}\u202e]/u);
      expect(stdout.length).toBeLessThan(64 * 1024);
      expect(stdout).toContain("\\x1b[2J\\x1b[H\\r\\x9b31m\\u202e".replace(/\\/g, output === "json" ? "\\\\" : "\\"));
      expect(stdout).toMatch(/\.\.\. \(\d{7} more characters\)/);
    }
  });

  it("names the object as the file does, escaped", async () => {
    const { stdout } = await diff();
    expect(stdout).toContain("default/a\\x1b[2J\\x1b[H\\r (CronTab.example.com example.com/v1beta1, document 1)");
  });
});
