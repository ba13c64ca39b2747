import { defineKind, stashFields, unstashFields } from "crdshift";
import * as z from "zod/mini";

/**
 * The CronTab of the Kubernetes docs page "Versions in CustomResourceDefinitions":
 * v1alpha1 says `endpoint: "host:port"`, v1beta1 renames it `hostPort`, v1 splits it into
 * `host` and `port`. Converters exist only between neighbours, so v1alpha1 <-> v1 takes two
 * steps. Every field is optional: partial objects (server-side apply fragments) convert too.
 * v1 adds `protocol`, which the older versions lack: it waits in an annotation while the object
 * is read as v1beta1 or v1alpha1, and comes back when it is written as v1 again.
 */
export const cronTabExample = defineKind({
  group: "example.com",
  kind: "CronTab",
  versions: {
    v1alpha1: z.looseObject({ endpoint: z.optional(z.string()) }),
    v1beta1: z.looseObject({ hostPort: z.optional(z.string()) }),
    v1: z.looseObject({ host: z.optional(z.string()), port: z.optional(z.string()), protocol: z.optional(z.string()) }),
  },
  // Why each converter may refuse an object, by name: `crdshift check` fails on any other throw.
  // v1alpha1 <-> v1 goes through v1beta1, and so refuses for these reasons too.
  refusals: {
    "v1beta1->v1": { "no-host-port": "a hostPort without a host and a port cannot be split into v1's host and port" },
    "v1->v1beta1": {
      "host-or-port-alone": "v1beta1's hostPort holds a host and a port only together",
      "colon-in-port": "v1beta1's hostPort holds a port without a colon",
    },
  },
  // `Object.assign(rest, { host, port })` rather than `{ ...rest, host, port }`: the same object
  // (`rest` is a fresh copy that keeps every field, `__proto__` included), built several times
  // faster by V8. Never `Object.assign({}, rest, …)`: copying *from* an object whose field is
  // named `__proto__` calls the prototype setter instead of copying the field.
  converters: {
    v1alpha1: {
      v1beta1: ({ endpoint, ...rest }) => (endpoint === undefined ? rest : Object.assign(rest, { hostPort: endpoint })),
    },
    v1beta1: {
      v1alpha1: ({ hostPort, ...rest }) =>
        hostPort === undefined ? rest : Object.assign(rest, { endpoint: hostPort }),
      v1: (object, { refuse }) => {
        const { object: unstashed, fields } = unstashFields(object);
        const { hostPort, ...rest } = unstashed;
        // `fields` holds what v1 -> v1beta1 stashed: protocol, nothing named __proto__.
        if (hostPort === undefined) return Object.assign(rest, fields);
        // Split at the last colon, so an IPv6 host such as "[::1]:80" keeps its own colons.
        const colon = hostPort.lastIndexOf(":");
        const host = hostPort.slice(0, colon);
        const port = hostPort.slice(colon + 1);
        if (colon < 0 || host === "" || port === "") {
          throw refuse("no-host-port", "hostPort could not be parsed into a separate host and port");
        }
        return Object.assign(rest, { host, port }, fields);
      },
    },
    v1: {
      v1beta1: ({ host, port, protocol, ...rest }, { refuse }) => {
        if (host === undefined && port === undefined) return stashFields(rest, { protocol });
        // Refuse what v1beta1 could not carry back unchanged.
        if (!host || !port) throw refuse("host-or-port-alone", "host and port must both be set to form hostPort");
        if (port.includes(":")) throw refuse("colon-in-port", `port ${JSON.stringify(port)} must not contain ":"`);
        return stashFields(Object.assign(rest, { hostPort: `${host}:${port}` }), { protocol });
      },
    },
  },
});
