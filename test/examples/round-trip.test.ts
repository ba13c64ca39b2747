import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { objectMetadata } from "../../src/check/object-metadata";
import { asJson, convertOk, review, testApp } from "../helpers";

/**
 * A -> B -> A gives back the object, for every ordered pair of versions of both examples.
 * Each leg goes over HTTP and through the apiserver's reply checks; the second leg sends what
 * the apiserver would have made of the first reply (its metadata restored).
 */
const { app } = testApp();

const metadata = fc.option(objectMetadata({ partial: true }), { nil: undefined });
/** Fields no version knows: status and an unknown field must come through untouched. */
const extras = fc.record({ status: fc.jsonValue(), future: fc.jsonValue() }, { requiredKeys: [] });

function object(apiVersion: string, fields: fc.Arbitrary<Record<string, unknown>>) {
  return fc.tuple(metadata, fields, extras).map(([meta, own, extra]) => ({
    apiVersion,
    kind: "CronTab",
    ...(meta ? { metadata: meta } : {}),
    ...extra,
    ...own,
  }));
}

// example.com: host may hold colons (IPv6), the port may not; both or neither.
const host = fc.oneof(fc.domain(), fc.constant("[::1]"), fc.ipV4());
const port = fc.stringMatching(/^[0-9a-z]{1,5}$/);
const hostPort = fc.option(
  fc.tuple(host, port).map(([h, p]) => `${h}:${p}`),
  { nil: undefined },
);
const defined = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
const docsVersions: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  v1alpha1: object(
    "example.com/v1alpha1",
    hostPort.map((endpoint) => defined({ endpoint })),
  ),
  v1beta1: object(
    "example.com/v1beta1",
    hostPort.map((hostPort) => defined({ hostPort })),
  ),
  // protocol exists only in v1: older versions carry it in the stash annotation.
  v1: object(
    "example.com/v1",
    fc
      .tuple(
        fc.option(fc.tuple(host, port), { nil: undefined }),
        fc.option(fc.constantFrom("TCP", "UDP", "SCTP"), { nil: undefined }),
      )
      .map(([hp, protocol]) => defined({ host: hp?.[0], port: hp?.[1], protocol })),
  ),
};

// stable.example.com: five one-word fields, or a cronSpec of five words.
const word = fc.stringMatching(/^[0-9*/,a-z-]{1,6}$/);
const five = fc.tuple(word, word, word, word, word);
const image = fc.option(fc.string(), { nil: undefined });
const spec = <T>(arb: fc.Arbitrary<T>) =>
  fc.option(arb, { nil: undefined }).map((s) => (s === undefined ? {} : { spec: s }));
const kepVersions: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  v1: object(
    "stable.example.com/v1",
    spec(
      fc
        .tuple(fc.option(five, { nil: undefined }), image)
        .map(([f, i]) => defined({ cronSpec: f?.join(" "), image: i })),
    ),
  ),
  v2: object(
    "stable.example.com/v2",
    spec(
      fc
        .tuple(fc.option(five, { nil: undefined }), image)
        .map(([f, i]) =>
          defined({ min: f?.[0], hour: f?.[1], dayOfMonth: f?.[2], month: f?.[3], dayOfWeek: f?.[4], image: i }),
        ),
    ),
  ),
};

/** An empty annotation map and none are the same to Kubernetes (omitempty). */
function withoutEmptyAnnotations(object: any) {
  const { annotations, ...metadata } = object.metadata ?? {};
  return {
    ...object,
    metadata: annotations && Object.keys(annotations).length > 0 ? { ...metadata, annotations } : metadata,
  };
}

async function roundTrip(original: Record<string, unknown>, group: string, to: string) {
  const there = await convertOk(app, review(`${group}/${to}`, [original]));
  const back = await convertOk(app, review(String(original.apiVersion), there.objects));
  expect(withoutEmptyAnnotations(back.reply.response.convertedObjects[0])).toEqual(
    withoutEmptyAnnotations(asJson(original)),
  );
}

for (const [group, versions] of [
  ["example.com", docsVersions],
  ["stable.example.com", kepVersions],
] as const) {
  describe(`round trips of ${group}`, () => {
    for (const from of Object.keys(versions)) {
      for (const to of Object.keys(versions)) {
        if (from === to) continue;
        it(`${from} -> ${to} -> ${from} keeps every field`, async () => {
          await fc.assert(
            fc.asyncProperty(versions[from]!, (o) => roundTrip(o, group, to)),
            { numRuns: 60 },
          );
        });
      }
    }
  });
}
