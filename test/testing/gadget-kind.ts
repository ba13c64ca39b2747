import * as z from "zod/mini";
import { defineKind, refuse, stashFields, unstashFields } from "../../src/conversion";

/**
 * Gadget (test/fixtures/crds/gadgets.example.com.yaml) with the converters written: v1's
 * `hostPort` and string `size` against v2's `host`, `port` and integer `size`, and v2's
 * `status` kept in the stash annotation while the object is read as v1. What `crdshift
 * check --crd` should pass once the generated TODOs are done.
 */
const integer = z.union([z.int(), z.bigint()]);
export const v1 = z.looseObject({
  spec: z.optional(
    z.looseObject({ hostPort: z.optional(z.string()), size: z.optional(z.string()), image: z.optional(z.string()) }),
  ),
});
export const v2 = z.looseObject({
  spec: z.optional(
    z.looseObject({
      host: z.optional(z.string()),
      port: z.optional(integer),
      size: z.optional(integer),
      image: z.optional(z.string()),
    }),
  ),
  status: z.optional(z.looseObject({ ready: z.optional(z.boolean()) })),
});

/** Digits as v1 writes them, or a refusal: "007" would not come back from v2's 7. Beyond 2^53, a bigint. */
function number(text: string, field: string): number | bigint {
  if (!/^(0|-?[1-9][0-9]*)$/.test(text))
    throw refuse(
      "not-a-number",
      `spec.${field} ${JSON.stringify(text)} is not a plain number; v2 holds it as an integer`,
    );
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : BigInt(text);
}

export const gadget = defineKind({
  group: "example.com",
  kind: "Gadget",
  versions: { v1, v2 },
  refusals: {
    "v1->v2": {
      "not-a-number": "v2 holds sizes and ports as integers",
      "no-port": "v2 holds a host and a port only together",
    },
    "v2->v1": { "host-or-port-alone": "v1's hostPort needs both a host and a port" },
  },
  converters: {
    v1: {
      v2: (object) => {
        const { object: unstashed, fields } = unstashFields(object);
        const { spec, ...rest } = unstashed;
        const out =
          fields.status === undefined ? rest : { ...rest, status: fields.status as z.input<typeof v2>["status"] };
        if (spec === undefined) return out;
        const { hostPort, size, ...keep } = spec;
        const next: z.input<typeof v2>["spec"] = { ...keep };
        if (size !== undefined) next.size = number(size, "size");
        if (hostPort !== undefined) {
          const colon = hostPort.lastIndexOf(":");
          if (colon < 0) throw refuse("no-port", `spec.hostPort ${JSON.stringify(hostPort)} is not host:port`);
          next.host = hostPort.slice(0, colon);
          next.port = number(hostPort.slice(colon + 1), "hostPort's port");
        }
        return { ...out, spec: next };
      },
    },
    v2: {
      v1: ({ spec, status, ...rest }, { refuse }) => {
        const out = stashFields(rest, { status });
        if (spec === undefined) return out;
        const { host, port, size, ...keep } = spec;
        if ((host === undefined) !== (port === undefined))
          throw refuse("host-or-port-alone", "v1 needs both spec.host and spec.port to form spec.hostPort");
        return {
          ...out,
          spec: {
            ...keep,
            ...(size !== undefined ? { size: String(size) } : {}),
            ...(host !== undefined ? { hostPort: `${host}:${String(port)}` } : {}),
          },
        };
      },
    },
  },
});
