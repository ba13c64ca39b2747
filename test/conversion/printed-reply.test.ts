import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { convertBody, createRegistry, defineKind } from "../../src/conversion";
import { printReply, replyText } from "../../src/conversion/printed-reply";
import { encodeJson, type JsonObject } from "../../src/json";
import { successReply } from "../../src/kube";
import { readConfig } from "../../src/server/config";
import { runs } from "../property-runs";

// A large review's reply is printed object by object as the batch converts them, so it holds
// text rather than trees; it must be the very text the whole reply printed at once would be.

const GROUP = "printed.example.com";
const loose = z.looseObject({});

function registry(convert: (object: Record<string, unknown>) => unknown = (object) => object) {
  return createRegistry([
    defineKind({
      group: GROUP,
      kind: "Gauge",
      versions: { v1: loose, v2: loose },
      converters: { v1: { v2: convert as never }, v2: { v1: (object) => object } },
    }),
  ]);
}

const review = (objects: unknown[]) => ({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "ConversionReview",
  request: { uid: 'r\u00e9"1', desiredAPIVersion: `${GROUP}/v2`, objects },
});

const gauge = (name: string, spec: unknown) => ({
  apiVersion: `${GROUP}/v1`,
  kind: "Gauge",
  metadata: { name, namespace: "ns", managedFields: [{ manager: "m", operation: "Update" }] },
  spec,
});

/** The reply to `text` with every limit at its default, parsed first or (a small object size limit) scanned first. */
async function replyOf(text: string, scanned: boolean, convert?: (object: Record<string, unknown>) => unknown) {
  const limits = { ...readConfig({}), ...(scanned ? { maxObjectBytes: Math.ceil(text.length * 1.5) } : {}) };
  const outcome = await convertBody(registry(convert), text, { limits });
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome;
}

describe("a reply printed as its objects convert", () => {
  it("is the text of the whole reply printed at once, whatever the objects hold", () => {
    const object = fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 })) as fc.Arbitrary<JsonObject>;
    fc.assert(
      fc.property(fc.array(object, { maxLength: 5 }), fc.string(), (objects, uid) => {
        const sent = { apiVersion: "apiextensions.k8s.io/v1", request: { uid } } as never;
        const printed = printReply(sent, false, false);
        objects.forEach((o, i) => printed.take(o, i));
        const finished = printed.finish();
        if (!("bytes" in finished)) throw new Error("unprintable");
        const expected = new TextEncoder().encode(encodeJson(successReply(sent, objects)));
        expect(Buffer.concat(finished.bytes.chunks)).toEqual(Buffer.from(expected));
        expect(finished.bytes.byteLength).toBe(expected.byteLength);
        expect(replyText(finished.bytes)).toBe(encodeJson(successReply(sent, objects)));
      }),
      { numRuns: 300 },
    );
  });

  it("is those UTF-8 bytes whatever size its pieces are, characters of 1 to 4 bytes split across none", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "\u00e9", "\u2603", "\u{1F600}", '"', "\n") });
    const object = fc.dictionary(text, fc.oneof(text, fc.integer())) as fc.Arbitrary<JsonObject>;
    fc.assert(
      fc.property(fc.array(object, { maxLength: 6 }), text, fc.integer({ min: 4, max: 64 }), (objects, uid, size) => {
        const sent = { apiVersion: "apiextensions.k8s.io/v1", request: { uid } } as never;
        const printed = printReply(sent, false, false, size);
        objects.forEach((o, i) => printed.take(o, i));
        const finished = printed.finish();
        if (!("bytes" in finished)) throw new Error("unprintable");
        const { chunks, byteLength } = finished.bytes;
        const expected = Buffer.from(encodeJson(successReply(sent, objects)));
        expect(Buffer.concat(chunks)).toEqual(expected);
        expect(byteLength).toBe(expected.byteLength);
        // Each piece is whole characters: it decodes alone, as a stream writing it piece by piece would.
        expect(chunks.map((chunk) => Buffer.from(chunk).toString()).join("")).toBe(expected.toString());
        expect(chunks.every((chunk) => chunk.byteLength <= size)).toBe(true);
      }),
      { numRuns: runs(300) },
    );
  });

  it("through the engine: a scanned body's reply is the one a body parsed whole gets, int64 included", async () => {
    const bodies = [
      [gauge("a", { size: 1 }), gauge("b", { note: '\u2603 "quoted"', list: [1, 2.5, null, true] })],
      [gauge("big", { replicas: 12345678901234567890n })],
      [],
    ].map((objects) => encodeJson(review(objects), true));
    for (const text of bodies) {
      const whole = await replyOf(text, false);
      const printed = await replyOf(text, true);
      expect(printed.text).toBe(whole.text);
      expect(printed.failure).toBeUndefined();
    }
    expect(bodies[1]).toContain("12345678901234567890");
    expect((await replyOf(bodies[1]!, true)).text).toContain("12345678901234567890");
  });

  it("through the engine: an object that cannot be printed fails the review as the whole reply would, naming it", async () => {
    // managedFields is shared with the reply, not copied: a cycle there is found only when printing.
    const cycle = (object: Record<string, unknown>) => {
      if ((object.metadata as { name: string }).name === "b") {
        const fields = (object.metadata as { managedFields: Array<Record<string, unknown>> }).managedFields;
        fields[0]!.self = fields;
      }
      return object;
    };
    const text = encodeJson(review([gauge("a", {}), gauge("b", {}), gauge("c", {})]));
    const whole = await replyOf(text, false, cycle);
    const printed = await replyOf(text, true, cycle);
    expect(printed.failure).toMatchObject({ code: "result-unprintable" });
    expect(printed.failure!.message).toMatch(/^object 1 \(ns\/b\)/);
    expect(printed.text).toBe(whole.text);
  });

  it("through the engine: a failure of a later object wins over an earlier object that cannot be printed, as before", async () => {
    const convert = (object: Record<string, unknown>) => {
      const { name } = object.metadata as { name: string; managedFields: Array<Record<string, unknown>> };
      if (name === "c") throw new Error("c refused");
      if (name === "a") {
        const fields = (object.metadata as { managedFields: Array<Record<string, unknown>> }).managedFields;
        fields[0]!.self = fields;
      }
      return object;
    };
    const text = encodeJson(review([gauge("a", {}), gauge("b", {}), gauge("c", {})]));
    const printed = await replyOf(text, true, convert);
    expect(printed.failure).toMatchObject({ code: "converter-threw" });
    expect(printed.text).toBe((await replyOf(text, false, convert)).text);
  });
});
