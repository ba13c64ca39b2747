import { createRegistry, defineKind } from "crdshift";
import * as z from "zod/mini";

/**
 * The kind of Kubernetes' own CRD conversion webhook e2e test (stable.example.com): v1 keeps
 * `hostPort: "host:port"`, v2 splits it into `host` and `port`.
 */
export const e2eKind = defineKind({
  group: "stable.example.com",
  kind: "E2eTestCrd",
  versions: {
    v1: z.looseObject({ hostPort: z.optional(z.string()) }),
    v2: z.looseObject({ host: z.optional(z.string()), port: z.optional(z.string()) }),
  },
  refusals: {
    "v1->v2": { "no-colon": "a hostPort without a colon has no separate host and port" },
    "v2->v1": { "not-together": "v1's hostPort holds a host and a port only together, and a port without a colon" },
  },
  converters: {
    v1: {
      v2: ({ hostPort, ...rest }, { refuse }) => {
        if (hostPort === undefined) return rest;
        const at = hostPort.lastIndexOf(":");
        if (at < 0) throw refuse("no-colon", `hostPort ${JSON.stringify(hostPort)} is not host:port`);
        return { ...rest, host: hostPort.slice(0, at), port: hostPort.slice(at + 1) };
      },
    },
    v2: {
      v1: ({ host, port, ...rest }, { refuse }) => {
        if (host === undefined && port === undefined) return rest;
        if (host === undefined || port === undefined || port.includes(":"))
          throw refuse("not-together", "v1 needs both host and port, and a port without a colon");
        return { ...rest, hostPort: `${host}:${port}` };
      },
    },
  },
});

export const registry = createRegistry([e2eKind]);
