import { readFileSync } from "node:fs";
import { request } from "node:http";
import { serve } from "crdshift/node";
import { afterEach, describe, expect, it, vi } from "vitest";
import { registry } from "../../examples";
import { hostile } from "../fixtures/hostile-registries";
import { registry as dropsPort } from "../fixtures/port-dropping-registry";

// What `serve()` serves: every request goes to the Hono app on @hono/node-server, and the shadow
// runs behind its review route.

const docsV1 = readFileSync(new URL("../../examples/requests/docs-v1.json", import.meta.url), "utf8");
const quiet = { port: 0, hostname: "127.0.0.1", banner: false, handleSignals: false } as const;

/** Raw bytes of one reply: status line fields, the headers that are not the date, the body. */
function post(port: number, body: string, chunked = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/convert?timeout=30s",
        headers: {
          "content-type": "application/json",
          ...(chunked ? {} : { "content-length": Buffer.byteLength(body) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const headers = Object.entries(res.headers).filter(([name]) => name !== "date" && name !== "keep-alive");
          resolve(`${res.statusCode}\n${JSON.stringify(headers)}\n${Buffer.concat(chunks).toString("utf8")}`);
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

function stdoutLines(): { lines: string[] } {
  const captured = { lines: [] as string[] };
  const write = process.stdout.write.bind(process.stdout);
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = String(chunk);
    if (text.includes("Shadow") || text.includes('"shadow')) captured.lines.push(text);
    return write(chunk, ...(rest as []));
  });
  return captured;
}

/** Posts until a review is shadowed: after one, none starts for a while (IDLE_FACTOR). */
async function untilShadowed(send: () => Promise<unknown>, captured: { lines: string[] }): Promise<void> {
  while (!captured.lines.some((line) => line.includes("ShadowDifferences"))) {
    await send();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

afterEach(() => vi.restoreAllMocks());

describe("serve(registry, { shadow })", () => {
  it("shadows reviews with a declared length and chunked ones, with EMF metrics", async () => {
    const captured = stdoutLines();
    const env = { CRDSHIFT_SHADOW_SAMPLE: "1", CRDSHIFT_METRICS: "emf" };
    const server = serve(registry, { ...quiet, env, shadow: dropsPort });
    const { port } = await server.listening;
    try {
      for (const chunked of [false, true]) {
        captured.lines.length = 0;
        await untilShadowed(() => post(port, docsV1, chunked), captured);
        const emf = JSON.parse(captured.lines.find((line) => line.includes("ShadowDifferences"))!);
        expect(emf).toMatchObject({ CRD: "CronTab.example.com", From: "v1beta1", To: "v1", ShadowDifferences: 2 });
        expect(emf).toMatchObject({ ShadowFailures: 0 });
        const logged = captured.lines
          .filter((line) => line.includes('"shadow difference"'))
          .map((line) => JSON.parse(line));
        expect(logged.slice(0, 2)).toEqual([
          expect.objectContaining({ paths: ["port"], object: 0 }),
          expect.objectContaining({ paths: ["port"], object: 1 }),
        ]);
      }
    } finally {
      await server.close();
    }
  });

  it.each([
    ["allocates 32 MB an object", () => hostile.allocates(32)],
    ["answers with 2,000,000 items", () => hostile.floods(2_000_000)],
  ])("answers the same bytes as without a candidate when the candidate %s", async (_, candidate) => {
    const plain = serve(registry, { ...quiet, env: {} });
    const shadowed = serve(registry, { ...quiet, env: { CRDSHIFT_SHADOW_SAMPLE: "1" }, shadow: candidate() });
    const [a, b] = await Promise.all([plain.listening, shadowed.listening]);
    try {
      const failing = docsV1.replace('"localhost:1234"', '"no port"');
      for (const body of [docsV1, failing, docsV1]) {
        for (const chunked of [false, true])
          expect(await post(b.port, body, chunked)).toBe(await post(a.port, body, chunked));
      }
    } finally {
      await Promise.all([plain.close(), shadowed.close()]);
    }
  });

  it("answers a review that arrives while a shadow compares two large lists before the comparison ends", async () => {
    const captured = stdoutLines();
    const review = JSON.parse(docsV1);
    const probe = JSON.stringify({ ...review, request: { ...review.request, objects: [review.request.objects[0]] } });
    const large = JSON.stringify({
      ...review,
      request: { ...review.request, objects: [{ ...review.request.objects[0], items: new Array(400_000).fill(7) }] },
    });
    let port = 0;
    let probed: Promise<string> | undefined;
    let shadowEndedFirst: boolean | undefined;
    // The comparison ends with its difference, or cut short at the shadow's 1 s budget when a
    // loaded machine slows it: either way the probe must have been answered before.
    const shadowEnded = (line: string) =>
      line.includes('"shadow difference"') || line.includes('"shadow comparison cut short"');
    // The candidate sends a review of its own as it converts: it arrives while the shadow runs.
    const candidate = hostile.answers((converted) => {
      probed ??= post(port, probe).then((reply) => {
        shadowEndedFirst = captured.lines.some(shadowEnded);
        return reply;
      });
      const { port: dropped, ...rest } = converted;
      return dropped === undefined ? converted : rest;
    });
    const server = serve(registry, { ...quiet, env: { CRDSHIFT_SHADOW_SAMPLE: "1" }, shadow: candidate });
    ({ port } = await server.listening);
    try {
      await post(port, large);
      await vi.waitFor(() => expect(captured.lines.some(shadowEnded)).toBe(true), { timeout: 20_000 });
      expect(await probed).toMatch(/^200\n/);
      expect(shadowEndedFirst).toBe(false);
    } finally {
      await server.close();
    }
  }, 30_000);
});
