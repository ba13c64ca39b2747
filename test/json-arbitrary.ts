import fc from "fast-check";

/** JSON-like trees, small, whose leaves may also be `extra`'s values (NaN, holes, …). */
export function jsonTreeWith(extra: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: "small" },
      fc.jsonValue(),
      extra,
      fc.array(tie("node")),
      fc.dictionary(fc.string(), tie("node")),
    ),
  })).node;
}
