import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULTS } from "../../src/server/config";
import { treeShape } from "../../src/json/tree-shape";
import { decodeJson, decodeWithShape, encodeJson } from "../../src/json/codec";
import { convertBody } from "../../src/conversion/convert-review";
import { createRegistry } from "../../src/conversion";
import { counterKind, counterReview } from "./counter-review";
import { holdsOutOfRange, hostileDocuments, losslessJsonText, readsAsLosslessJson } from "./hostile-documents";
import { runs } from "../property-runs";

const GROUP = "careful.example.com";
const registry = createRegistry([counterKind(GROUP)]);

describe("integers beyond 2^53 beside digit runs in strings", () => {
  it("property: read and written back as lossless-json reads and writes them, by the marker's guess and exactly", () => {
    fc.assert(readsAsLosslessJson, { numRuns: runs(3000) });
  });

  it("says a document holds a bigint only if one is left after repeated keys dropped theirs, whichever way it is read", () => {
    // Two spellings of one double send the general path to its markers; the outer repeated key
    // then drops the object that held the bigint, which a parse first never sees at all.
    const text = '{"":{"":9007199254740992,"":9007199254740993},"":""}';
    expect(decodeJson(text)).toEqual({ value: { "": "" }, lossless: false, outOfRange: false });
    expect(decodeWithShape(text).decoded).toEqual(decodeJson(text));
    const kept = '{"a":{"":9007199254740992,"":9007199254740993}}';
    expect(decodeJson(kept)).toEqual({ value: { a: { "": 9007199254740993n } }, lossless: true, outOfRange: false });
    expect(decodeWithShape(kept).decoded).toEqual(decodeJson(kept));
  });

  it("property: parsed and walked first, the text searched only after a number that may need care, as decoded after the whole search; depth and keys the decoded tree's, numbers the parsed tree's", () => {
    const outcome = (read: () => { decoded: unknown; shape: unknown }) => {
      try {
        return read();
      } catch (error) {
        return { thrown: error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error) };
      }
    };
    // Numbers spelled every way that may or may not need care, as values and in strings: safe
    // integers and fractions of 16 digits or more, exponents, integers beyond 2^53, edges.
    const spelling = fc.constantFrom(
      "1234567890123456",
      "9007199254740991",
      "9007199254740992",
      "9007199254740993",
      "-9223372036854775808",
      "0.12345678901234567",
      "12345678901234567.5",
      "1e16",
      "1E+16",
      "90071992547409.93e2",
      "1e100",
      "1e308",
      "1e400",
      "-1e-400",
      "0",
      "-0",
      "0.0",
      "4",
    );
    const spelled = fc
      .array(fc.tuple(spelling, fc.boolean()), { minLength: 1, maxLength: 5 })
      .map((items) => `{"a":[${items.map(([n, quoted]) => (quoted ? `"x${n}"` : n)).join(",")}],"b":{"c":1}}`);
    // Cut short too, so that broken texts are refused alike.
    const texts = fc
      .tuple(fc.oneof(hostileDocuments, spelled), fc.nat(), fc.boolean())
      .map(([text, cut, whole]) => (whole ? text : text.slice(0, cut % (text.length + 1))));
    fc.assert(
      fc.property(texts, fc.constantFrom("mark", "refuse") as fc.Arbitrary<"mark" | "refuse">, (text, outOfRange) => {
        const general = outcome(() => {
          const decoded = decodeJson(text, { outOfRange });
          const { depth, protoKey } = treeShape(decoded.value);
          return { decoded, shape: { ...treeShape(JSON.parse(text)), depth, protoKey } };
        });
        expect(outcome(() => decodeWithShape(text, { outOfRange }))).toEqual(general);
      }),
      { numRuns: runs(3000) },
    );
  });

  it("property: through the engine, a converted object holds each document as lossless-json writes it, whether the body is parsed first or scanned first", async () => {
    await fc.assert(
      fc.asyncProperty(hostileDocuments, async (text) => {
        fc.pre(!holdsOutOfRange(text));
        const body = counterReview(GROUP, "1", `,"doc":${text}`);
        // Three UTF-16 units per byte at most: below this the engine parses before it scans.
        for (const maxObjectBytes of [DEFAULTS.maxObjectBytes, body.length * 3 - 1]) {
          const outcome = await convertBody(registry, body, { limits: { ...DEFAULTS, maxObjectBytes } });
          if (!outcome.ok) throw new Error(`${text}: ${outcome.message}`);
          expect(outcome.failure).toBeUndefined();
          expect(outcome.text).toContain(`,"doc":${losslessJsonText(text)}}`);
        }
      }),
      { numRuns: runs(500) },
    );
  });

  it("putting integers back reads only the tree's own names, whatever Object.prototype holds", () => {
    // Code in the same process (a converter's library) may leave an enumerable name on
    // Object.prototype: an object found there inherits it too, and a walk that followed it
    // would never end when a repeated key has dropped a marker it is still looking for.
    let reads = 0;
    Object.defineProperty(Object.prototype, "polluted", {
      get() {
        if (++reads > 100) throw new Error("the walk follows Object.prototype");
        return {};
      },
      enumerable: true,
      configurable: true,
    });
    let written: string;
    try {
      written = encodeJson(
        decodeJson('{"a":12345678901234567890,"a":1,"b":{"c":[{"d":-9223372036854775809}]}}').value,
        true,
      );
    } finally {
      delete (Object.prototype as { polluted?: unknown }).polluted;
    }
    expect(reads).toBe(0);
    expect(written).toBe('{"a":1,"b":{"c":[{"d":-9223372036854775809}]}}');
  });
});
