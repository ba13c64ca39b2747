import { readFileSync } from "node:fs";
import { ConfigError } from "crdshift";
import { serve } from "crdshift/node";
import { describe, expect, it, vi } from "vitest";
import { registry } from "../../../examples";
import { checkReply, type SentReview } from "../../../src/kube/apiserver/apiserver-checks";

const sent = JSON.parse(
  readFileSync(new URL("../../../examples/requests/docs-v1.json", import.meta.url), "utf8"),
) as SentReview;
const TOKEN = "serve-test-token-0123456789";
const quiet = { port: 0, hostname: "127.0.0.1", banner: false, handleSignals: false } as const;

describe("serve(registry) from crdshift/node", () => {
  it("listens where it is told, with the settings it is given, and closes", async () => {
    const server = serve(registry, { ...quiet, env: { CRDSHIFT_TOKEN: TOKEN } });
    const { url, address } = await server.listening;
    expect(address).toBe("127.0.0.1");
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/convert\/\$CRDSHIFT_TOKEN$/);
    const base = url.replace(/\/convert\/.*$/, "");
    const res = await fetch(`${base}/convert/${TOKEN}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(sent),
    });
    expect(checkReply(sent, res.status, await res.text(), res.headers.get("content-type") ?? "")).toMatchObject({
      ok: true,
    });
    expect((await fetch(`${base}/convert`, { method: "POST", body: "{}" })).status).toBe(404);
    await server.close();
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  });

  it("throws a ConfigError at once for a bad setting, before listening", () => {
    expect(() => serve(registry, { ...quiet, env: { CRDSHIFT_TOKEN: "short" } })).toThrow(ConfigError);
  });

  it("logs the apiserver's trace and span ids from traceparent, and nothing of a malformed header", async () => {
    const lines: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk, ...rest) => {
      if (String(chunk).includes('"review converted"')) lines.push(String(chunk));
      else return write(chunk as string, ...(rest as []));
      return true;
    });
    const server = serve(registry, { ...quiet, env: { CRDSHIFT_LOG_REVIEWS: "all" } });
    try {
      const { url } = await server.listening;
      const post = (traceparent: string, uid: string) =>
        fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", traceparent },
          body: JSON.stringify({ ...sent, request: { ...sent.request, uid } }),
        });
      await post("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "traced");
      await post("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01<script>", "malformed");
      await vi.waitFor(() => expect(lines).toHaveLength(2), { timeout: 10_000, interval: 20 });
    } finally {
      await server.close();
      spy.mockRestore();
    }
    const [traced, malformed] = lines.map((line) => JSON.parse(line));
    expect(traced).toMatchObject({
      uid: "traced",
      result: "success",
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
    });
    expect(malformed.uid).toBe("malformed");
    expect(malformed).not.toHaveProperty("traceId");
    expect(lines[1]).not.toContain("script");
  });
});
