import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
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

  // PORT and HOST are read by serve() itself, not by the shared configuration: these pass no port or hostname option.
  const fromEnv = { banner: false, handleSignals: false } as const;
  const errorLines = () => {
    const lines: string[] = [];
    const write = vi.spyOn(process.stderr, "write").mockImplementation((line) => {
      lines.push(String(line));
      return true;
    });
    return {
      configErrors: () => lines.filter((line) => line.includes("configuration error")),
      restore: () => write.mockRestore(),
    };
  };

  it("takes PORT and HOST from the environment, trimmed as every setting is", async () => {
    const server = serve(registry, { ...fromEnv, env: { PORT: " 0 ", HOST: " 127.0.0.1 " } });
    try {
      expect((await server.listening).port).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });

  it("a PORT or HOST that cannot be one is a ConfigError at once, in one log line naming it and its value", () => {
    const stderr = errorLines();
    try {
      for (const port of ["abc", "-1", "70000", "1.5", "", " ", "0x50", "8e3"]) {
        expect(() => serve(registry, { ...fromEnv, env: { PORT: port } })).toThrow(ConfigError);
        expect(() => serve(registry, { ...fromEnv, env: { PORT: port } })).toThrow(
          `PORT must be a whole number from 0 to 65535 (0: any free port); got ${JSON.stringify(port)}`,
        );
      }
      for (const host of ["", "a b", "[::1]", "http://example.com", "host:80"]) {
        expect(() => serve(registry, { ...fromEnv, env: { PORT: "0", HOST: host } })).toThrow(
          `HOST must be an IP address or a host name, e.g. 127.0.0.1, 0.0.0.0 or :: (IPv6, without brackets); got ${JSON.stringify(host)}`,
        );
      }
      expect(() => serve(registry, { ...fromEnv, port: 1.5 })).toThrow(ConfigError);
      // A value from the environment is quoted and escaped: it cannot forge a log line of its own.
      expect(() => serve(registry, { ...fromEnv, env: { PORT: '1"\n{"level":"info"}' } })).toThrow(
        String.raw`got "1\"\n{\"level\":\"info\"}"`,
      );
      expect(stderr.configErrors()).toHaveLength(8 * 2 + 5 + 1 + 1);
      for (const line of stderr.configErrors()) expect(JSON.parse(line)).toMatchObject({ level: "error" });
    } finally {
      stderr.restore();
    }
  });

  it("an address it cannot bind is a ConfigError in one log line, not an uncaught error", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as AddressInfo;
    const stderr = errorLines();
    try {
      const refusals = [
        [{ PORT: String(port) }, `HOST unset (127.0.0.1), PORT "${port}": cannot listen there (EADDRINUSE)`],
        // TEST-NET-1 (RFC 5737): no host's own address.
        [{ PORT: "0", HOST: "192.0.2.1" }, `HOST "192.0.2.1", PORT "0": cannot listen there (EADDRNOTAVAIL)`],
        // Without DNS at hand the lookup fails as EAI_AGAIN rather than ENOTFOUND.
        [
          { PORT: "0", HOST: "999.1.1.1" },
          /^HOST "999\.1\.1\.1", PORT "0": cannot listen there \((ENOTFOUND|EAI_AGAIN)\)$/,
        ],
        [
          { HOST: "no-such-host.invalid" },
          /^HOST "no-such-host\.invalid", PORT unset \(8787\): cannot listen there \((ENOTFOUND|EAI_AGAIN)\)$/,
        ],
      ] as const;
      for (const [env, message] of refusals) {
        const server = serve(registry, { ...fromEnv, env });
        await expect(server.listening).rejects.toThrow(ConfigError);
        await expect(server.listening).rejects.toThrow(message);
        expect(server.server.listening).toBe(false);
        await server.close();
      }
      const logged = stderr.configErrors();
      expect(logged).toHaveLength(refusals.length);
      expect(JSON.parse(logged[0]!)).toMatchObject({ level: "error", msg: "configuration error" });
    } finally {
      stderr.restore();
      taken.close();
    }
  });

  it("keeps exit code 1 for a refused address when a signal ends the process later", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as AddressInfo;
    // A program that lives on after serve() (a timer of its own), ended by its supervisor's SIGTERM.
    const script = `
      import { createRegistry } from "./dist/index.js";
      import { serve } from "./dist/node.js";
      setInterval(() => {}, 1000);
      serve(createRegistry([]), { banner: false, env: { PORT: "${port}" } }).listening.catch(() => console.log("refused"));`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      cwd: fileURLToPath(new URL("../../../", import.meta.url)),
    });
    try {
      let stdout = "";
      child.stdout.on("data", (chunk) => (stdout += chunk));
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      await vi.waitFor(() => expect(stdout).toContain("refused"), { timeout: 20_000, interval: 50 });
      child.kill("SIGTERM");
      expect(await exited).toBe(1);
    } finally {
      child.kill("SIGKILL");
      taken.close();
    }
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
