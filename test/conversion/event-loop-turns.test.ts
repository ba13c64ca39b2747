import { describe, expect, it } from "vitest";
import * as z from "zod";
import { convertBody, createRegistry, defineKind } from "../../src/conversion";
import { readConfig } from "../../src/server/config";

// A large review lets the event loop turn while it converts: /healthz, the replies of other
// reviews and the garbage collector's work run in those turns. A small one converts in one go.

const GROUP = "turns.example.com";
const loose = z.looseObject({});

/** A review of `count` objects of about `padding` characters each, and what its converter saw of the loop. */
async function convertWhileLoopTurns(count: number, padding: number, limits = readConfig({})) {
  const seen: boolean[] = [];
  let turned = false;
  const registry = createRegistry([
    defineKind({
      group: GROUP,
      kind: "Pump",
      versions: { v1: loose, v2: loose },
      converters: {
        v1: {
          v2: (object) => {
            seen.push(turned);
            return object;
          },
        },
        v2: { v1: (object) => object },
      },
    }),
  ]);
  const objects = Array.from({ length: count }, (_, i) => ({
    apiVersion: `${GROUP}/v1`,
    kind: "Pump",
    metadata: { name: `p${i}` },
    spec: { note: "x".repeat(padding) },
  }));
  const text = JSON.stringify({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "ConversionReview",
    request: { uid: "u", desiredAPIVersion: `${GROUP}/v2`, objects },
  });
  setImmediate(() => (turned = true));
  const outcome = await convertBody(registry, text, { limits });
  if (!outcome.ok || outcome.failure) throw new Error("not converted");
  return { seen, text, outcome };
}

describe("a large review's conversion", () => {
  it("lets the event loop turn between its objects, every so much text", async () => {
    // About 3 MB of objects, scanned before parsing: the loop turns after about each 512 KiB.
    const { seen, text } = await convertWhileLoopTurns(300, 10_000);
    expect(text.length).toBeGreaterThan(2.5 * 1024 * 1024);
    expect(seen).toHaveLength(300);
    expect(seen[0]).toBe(false);
    expect(seen.at(-1)).toBe(true);
    // Not before the first 512 KiB: about 50 objects of 10,000 characters.
    expect(seen.indexOf(true)).toBeGreaterThan(40);
    expect(seen.indexOf(true)).toBeLessThan(60);
  });

  it("converts a small review in one go, without a turn", async () => {
    const { seen, text } = await convertWhileLoopTurns(50, 10_000);
    expect(text.length).toBeLessThan(1024 * 1024);
    expect(seen).toHaveLength(50);
    expect(seen.every((turned) => !turned)).toBe(true);
  });
});
