import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { registry } from "../../examples";
import { createApp } from "../../src/server/app";
import { readConfig } from "../../src/server/config";
import { encodeJson } from "../../src/json/codec";
import type { LogRecord } from "../../src/log";
import type { Registry } from "../../src/conversion";
import { arbitraryFor } from "../../src/check/arbitrary";
import { DEEP_TREES, deepReview } from "../deep-reviews";
import { hostile } from "../fixtures/hostile-registries";
import { registry as dropsPort } from "../fixtures/port-dropping-registry";

// Whatever the candidate does, every reply is the one the webhook gives without it, byte for
// byte, status and headers included: on the app's review cases and on generated reviews.

const docs = (name: string) => readFileSync(new URL(`../../examples/requests/${name}`, import.meta.url), "utf8");
const docsV1 = docs("docs-v1.json");
const CASES: Array<[string, string]> = [
  ["the docs page's v1 review", docsV1],
  ["the docs page's v1beta1 review", docs("docs-v1beta1.json")],
  ["a review to an unknown version", docsV1.replace('"example.com/v1"', '"example.com/v9"')],
  ["an object that fails", docsV1.replace('"localhost:1234"', '"no port"')],
  ["a v1beta1 ConversionReview", docsV1.replace('"apiextensions.k8s.io/v1"', '"apiextensions.k8s.io/v1beta1"')],
  ["invalid JSON", '{"apiVersion":'],
  ["JSON that is no review", '{"kind":"Pod"}'],
  ...DEEP_TREES.map(([name, tree]): [string, string] => [name, deepReview(tree)]),
];

const CANDIDATES: Array<[string, () => Registry]> = [
  ["drops port", () => dropsPort],
  ["throws", hostile.throws],
  ["never settles", hostile.neverSettles],
  ["is slow", () => hostile.slow(5)],
  ["allocates 32 MB an object", () => hostile.allocates(32)],
  ["scribbles on its objects", hostile.scribbles],
  ["answers with 2,000,000 items", () => hostile.floods(2_000_000)],
];

function webhook(candidate?: Registry) {
  const errors: LogRecord[] = [];
  const shadowWork: Array<Promise<void>> = [];
  const app = createApp({
    registry,
    config: readConfig({ CRDSHIFT_SHADOW_SAMPLE: "1" }),
    log: (record) => void (record.level === "error" && errors.push(record)),
    defer: (_, work) => void shadowWork.push(work),
    ...(candidate ? { shadow: candidate } : {}),
  });
  const post = async (body: string) => {
    const res = await app.request("http://crdshift.test/convert?timeout=30s", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
    });
    return { status: res.status, headers: headerList(res.headers), body: new Uint8Array(await res.arrayBuffer()) };
  };
  return { post, errors, shadowWork };
}

const plain = webhook();

describe("live replies with a shadow candidate", () => {
  it.each(CANDIDATES)("are the same bytes when the candidate %s", async (_, candidate) => {
    const shadowed = webhook(candidate());
    for (const [name, body] of CASES) {
      // Twice: the second review comes while the first one's shadow may still run.
      for (let round = 0; round < 2; round++) expect(await shadowed.post(body), name).toEqual(await plain.post(body));
    }
    // Every shadow finished (each within its budget), then nothing was logged as an error.
    expect(shadowed.shadowWork.length).toBeGreaterThan(0);
    await Promise.all(shadowed.shadowWork);
    expect(shadowed.errors).toEqual([]);
  });

  it("are the same bytes on generated reviews of every served version", async () => {
    const shadowed = webhook(hostile.scribbles());
    const served = registry.kinds.flatMap((kind) =>
      [...kind.versions].map(([version, schema]) => ({ kind, version, schema })),
    );
    const review = fc.constantFrom(...served).chain(({ kind, version, schema }) =>
      fc
        .tuple(
          fc.array(arbitraryFor(schema, { unknownFields: true }), { minLength: 1, maxLength: 4 }),
          fc.constantFrom(...kind.versions.keys()),
        )
        .map(([objects, to]) =>
          encodeJson({
            apiVersion: "apiextensions.k8s.io/v1",
            kind: "ConversionReview",
            request: {
              uid: "generated",
              desiredAPIVersion: `${kind.group}/${to}`,
              objects: objects.map((fields, i) => ({
                ...fields,
                apiVersion: `${kind.group}/${version}`,
                kind: kind.kind,
                metadata: { name: `o${i}`, namespace: "default", uid: `uid-${i}` },
              })),
            },
          }),
        ),
    );
    await fc.assert(
      fc.asyncProperty(review, async (body) => {
        expect(await shadowed.post(body)).toEqual(await plain.post(body));
      }),
      { numRuns: 60 },
    );
  });
});

function headerList(headers: Headers): Array<[string, string]> {
  const list: Array<[string, string]> = [];
  headers.forEach((value, name) => list.push([name, value]));
  return list;
}
