import fc from "fast-check";
import { setField } from "../json";
import { BEYOND_SAFE, INT64_MAX, INT64_MIN } from "./scalars";

/**
 * What both generators put where a schema says nothing (a field of no declared type, unknown
 * fields a schema lets through, map keys): any JSON value as the webhook decodes it, and field
 * names JavaScript gives a meaning to, which a converter must copy as data.
 */

/** Keys that trip JavaScript objects; the apiserver's objects keep them as plain fields. */
const ODD_NAMES = ["__proto__", "constructor", "prototype", "toString"];

/** A field or map key: any text, sometimes one JavaScript gives a meaning to. */
export const fieldName: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.string({ maxLength: 10 }) },
  { weight: 1, arbitrary: fc.constantFrom(...ODD_NAMES) },
);

/**
 * A number as the webhook decodes it: an integer beyond ±2^53 printed in digits (as JSON printers
 * do below 1e21) arrives as bigint; JSON text holds no -0.
 */
const asDecoded = (n: number): number | bigint =>
  Number.isInteger(n) && !Number.isSafeInteger(n) && Math.abs(n) < 1e21 ? BigInt(n) : Object.is(n, -0) ? 0 : n;

const scalar = fc.oneof(
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(asDecoded),
  fc.oneof(fc.bigInt({ min: BEYOND_SAFE + 1n, max: INT64_MAX }), fc.bigInt({ min: INT64_MIN, max: -BEYOND_SAFE - 1n })),
);

/** Any JSON value, two levels deep at most, its objects ordinary ones with their keys as own fields. */
export const anyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { maxDepth: 2, depthIdentifier: "anyJson" },
    scalar,
    fc.array(tie("value"), { maxLength: 3, depthIdentifier: "anyJson" }),
    fc
      .uniqueArray(fc.tuple(fieldName, tie("value")), {
        selector: ([key]) => key,
        maxLength: 3,
        depthIdentifier: "anyJson",
      })
      .map(entriesToObject),
  ),
})).value;

/** An object of the entries, each an own field (a key `__proto__` too), in order. */
export function entriesToObject(entries: ReadonlyArray<readonly [string, unknown]>): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of entries) setField(object, key, value);
  return object;
}
