import { describe, expect, it } from "vitest";
import { readWebhookAddress } from "../../../src/platforms/node/webhook-address";

describe("the webhook's PORT and HOST", () => {
  it("accepts every address Node can listen on: IPv4, IPv6 (any, loopback, zone-scoped) and host names", () => {
    for (const host of ["0.0.0.0", "127.0.0.1", "::", "::1", "fe80::1%eth0", "localhost", "crdshift.ns.svc", "my-svc."])
      expect(readWebhookAddress({}, { HOST: host, PORT: "8080" })).toMatchObject({ hostname: host, port: 8080 });
  });

  it("takes 0 (any free port) to 65535, and the defaults when unset", () => {
    expect(readWebhookAddress({}, { PORT: "0" }).port).toBe(0);
    expect(readWebhookAddress({}, { PORT: "65535" }).port).toBe(65_535);
    expect(readWebhookAddress({}, {})).toMatchObject({ hostname: "127.0.0.1", port: 8787 });
  });
});
