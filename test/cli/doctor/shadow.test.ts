import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { registry } from "../../../examples";
import { main } from "../../../src/cli/main";
import { createApp } from "../../../src/server/app";
import { readConfig } from "../../../src/server/config";
import { silentLogger } from "../../../src/log";
import { registry as dropsPort } from "../../fixtures/port-dropping-registry";
import { serveApp } from "../local-server";

const crd = parse(readFileSync(new URL("../../../examples/crds/crontabs.example.com.yaml", import.meta.url), "utf8"));

async function doctorText(origin: string, path = "/convert") {
  let stdout = "";
  await main(["doctor", "-f", "-", "--url", `${origin}${path}`, "--allow-http", "--objects", "1"], {
    out: (text) => (stdout += text),
    err: () => {},
    stdin: () => JSON.stringify(crd),
  });
  return stdout;
}

describe("crdshift doctor on a webhook with a shadow candidate", () => {
  it("says shadow is on and at which sample rate, from /healthz beside the URL probed", async () => {
    const token = "doctor-shadow-token-0123456789";
    const env = { CRDSHIFT_SHADOW_SAMPLE: "0.05", CRDSHIFT_TOKEN: token };
    const app = createApp({ registry, config: readConfig(env), log: silentLogger, shadow: dropsPort });
    const server = await serveApp(app.fetch);
    try {
      expect(await doctorText(server.origin, `/convert/${token}`)).toMatch(
        /shadows a candidate registry on 5% of reviews \(CRDSHIFT_SHADOW_SAMPLE=0\.05\)/,
      );
    } finally {
      await server.close();
    }
  });

  it("says nothing of it when the webhook has none", async () => {
    const app = createApp({ registry, config: readConfig({}), log: silentLogger });
    const server = await serveApp(app.fetch);
    try {
      const text = await doctorText(server.origin);
      expect(text).toMatch(/ConversionReviews over 6 ordered pairs/);
      expect(text).not.toMatch(/shadow/);
    } finally {
      await server.close();
    }
  });
});
