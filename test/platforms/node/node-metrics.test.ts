import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ConfigError } from "crdshift";
import { serve } from "crdshift/node";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it, vi } from "vitest";
import { registry } from "../../../examples";
import { readMetricsAddress } from "../../../src/platforms/node/metrics-listener";

const sent = JSON.parse(readFileSync(new URL("../../../examples/requests/docs-v1.json", import.meta.url), "utf8"));
const quiet = { port: 0, hostname: "127.0.0.1", banner: false, handleSignals: false } as const;

const sample = (text: string, series: string) =>
  Number(
    text
      .split("\n")
      .find((line) => line.startsWith(`${series} `))
      ?.slice(series.length + 1),
  );

describe("serve() with CRDSHIFT_METRICS_BIND_ADDRESS", () => {
  it("exposes the review counts and latencies on /metrics, on its own port only", async () => {
    const server = serve(registry, { ...quiet, env: { CRDSHIFT_METRICS_BIND_ADDRESS: "127.0.0.1:0" } });
    try {
      const { url, metricsUrl } = await server.listening;
      expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      const post = (body: unknown) =>
        fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      for (let i = 0; i < 3; i++) expect((await post(sent)).status).toBe(200);
      const failing = { ...sent, request: { ...sent.request, desiredAPIVersion: "example.com/v9" } };
      expect((await post(failing)).status).toBe(200);
      expect((await fetch(url.replace("/convert", "/nowhere"))).status).toBe(404);

      const res = await fetch(metricsUrl!);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = await res.text();
      const served = 'crd="CronTab.example.com",from_version="v1beta1",to_version="v1"';
      expect(sample(text, `crdshift_conversion_webhook_duration_seconds_count{${served},succeeded="true"}`)).toBe(3);
      expect(sample(text, `crdshift_conversion_objects_converted_total{${served}}`)).toBe(6);
      // An unserved version is counted as `other`, as in CloudWatch: the request names it, not the registry.
      const failed = 'crd="CronTab.example.com",from_version="v1beta1",to_version="other",succeeded="false"';
      expect(sample(text, `crdshift_conversion_webhook_duration_seconds_count{${failed}}`)).toBe(1);
      expect(sample(text, 'crdshift_conversion_webhook_requests_total{code="200"}')).toBe(4);
      expect(sample(text, 'crdshift_conversion_webhook_requests_total{code="404"}')).toBe(1);
      expect(text).toMatch(/^process_resident_memory_bytes \d+/m);

      // Neither server answers the other's path.
      expect((await fetch(url.replace(/\/convert$/, "/metrics"))).status).toBe(404);
      expect((await fetch(metricsUrl!.replace(/\/metrics$/, "/convert"), { method: "POST", body: "{}" })).status).toBe(
        404,
      );
    } finally {
      await server.close();
    }
  });

  it("counts the requests in flight, as controller-runtime does", async () => {
    const server = serve(registry, { ...quiet, env: { CRDSHIFT_METRICS_BIND_ADDRESS: "127.0.0.1:0" } });
    try {
      const { url, metricsUrl } = await server.listening;
      const inFlight = async () =>
        sample(await (await fetch(metricsUrl!)).text(), "crdshift_conversion_webhook_requests_in_flight");
      expect(await inFlight()).toBe(0);
      // A review whose body is still on its way holds its place until it is answered.
      const body = JSON.stringify(sent);
      const answered = new Promise<number>((resolve, reject) => {
        const upload = request(url, { method: "POST", headers: { "content-type": "application/json" } }, (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        });
        upload.on("error", reject);
        upload.write(body.slice(0, 10));
        void vi
          .waitFor(async () => expect(await inFlight()).toBe(1), { timeout: 10_000, interval: 20 })
          .then(() => upload.end(body.slice(10)), reject);
      });
      expect(await answered).toBe(200);
      await vi.waitFor(async () => expect(await inFlight()).toBe(0), { timeout: 10_000, interval: 20 });
    } finally {
      await server.close();
    }
  });

  it("has no metrics listener without it", async () => {
    const server = serve(registry, { ...quiet, env: {} });
    try {
      expect((await server.listening).metricsUrl).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  it("an address it cannot bind is a ConfigError in one log line, the webhook's server closed too, not an uncaught error", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as AddressInfo;
    const lines: string[] = [];
    const write = vi.spyOn(process.stderr, "write").mockImplementation((line) => {
      lines.push(String(line));
      return true;
    });
    try {
      const server = serve(registry, { ...quiet, env: { CRDSHIFT_METRICS_BIND_ADDRESS: `127.0.0.1:${port}` } });
      await expect(server.listening).rejects.toThrow(ConfigError);
      await expect(server.listening).rejects.toThrow(
        `CRDSHIFT_METRICS_BIND_ADDRESS "127.0.0.1:${port}": cannot listen there (EADDRINUSE)`,
      );
      await vi.waitFor(() => expect(server.server.listening).toBe(false));
      await server.close();
      const logged = lines.filter((line) => line.includes("configuration error"));
      expect(logged).toHaveLength(1);
      expect(JSON.parse(logged[0]!)).toMatchObject({ level: "error", msg: "configuration error" });
    } finally {
      write.mockRestore();
      taken.close();
    }
  });

  it("reads host:port, [ipv6]:port and :port; 0 or nothing is off; anything else a ConfigError", () => {
    expect(readMetricsAddress("127.0.0.1:9090")).toEqual({ hostname: "127.0.0.1", port: 9090 });
    expect(readMetricsAddress("[::1]:9090")).toEqual({ hostname: "::1", port: 9090 });
    expect(readMetricsAddress(":8080")).toEqual({ hostname: undefined, port: 8080 });
    expect(readMetricsAddress("localhost:0")).toEqual({ hostname: "localhost", port: 0 });
    for (const off of [undefined, "", "0", " 0 "]) expect(readMetricsAddress(off)).toBeUndefined();
    for (const bad of ["9090", "127.0.0.1", "127.0.0.1:70000", "::1:9090", "host:port", "a b:1"]) {
      expect(() => readMetricsAddress(bad)).toThrow(ConfigError);
    }
    expect(() => serve(registry, { ...quiet, env: { CRDSHIFT_METRICS_BIND_ADDRESS: "9090" } })).toThrow(
      /CRDSHIFT_METRICS_BIND_ADDRESS must be host:port/,
    );
  });
});

describe("prom-client", () => {
  // A child Node with the built package (npm test builds it first): this process may have
  // loaded prom-client already.
  const loadedAfter = (serveWith: string) => {
    const script = `
      import { createRequire } from "node:module";
      import { createRegistry } from "./dist/index.js";
      import { serve } from "./dist/node.js";
      ${serveWith}
      const loaded = Object.keys(createRequire(process.cwd() + "/").cache).some((file) => file.includes("/prom-client/"));
      console.log(JSON.stringify(loaded));
      process.exit(0);`;
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: fileURLToPath(new URL("../../../", import.meta.url)),
      encoding: "utf8",
    });
    expect(child.stderr).toBe("");
    return JSON.parse(child.stdout.trim().split("\n").at(-1)!) as boolean;
  };

  it("is not loaded by importing crdshift/node, nor by serve() without CRDSHIFT_METRICS_BIND_ADDRESS", () => {
    expect(loadedAfter("")).toBe(false);
    expect(
      loadedAfter(`serve(createRegistry([]), { port: 0, banner: false, handleSignals: false, env: {} }).close();`),
    ).toBe(false);
  });

  it("is loaded once the address is set", () => {
    expect(
      loadedAfter(
        `serve(createRegistry([]), { port: 0, banner: false, handleSignals: false, env: { CRDSHIFT_METRICS_BIND_ADDRESS: "127.0.0.1:0" } }).close();`,
      ),
    ).toBe(true);
  });
});
