/**
 * Reviews of objects nested as deep as the apiserver stores them (up to 10,000 levels), as
 * text: JSON.stringify cannot write them. Shared by the tests of every platform's build.
 */
export const nested = (depth: number, inner = "1") => `${'{"a":['.repeat(depth / 2)}${inner}${"]}".repeat(depth / 2)}`;

export const DEEP_TREES: ReadonlyArray<[name: string, tree: string]> = [
  ["a 9,000-deep object", nested(9000)],
  ["a 9,000-deep object with an int64 at the bottom", nested(9000, "-9223372036854775807")],
];

/** A CronTab holding `tree` in a field its schema does not name (x-kubernetes-preserve-unknown-fields). */
export function deepReview(tree: string): string {
  return (
    '{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"deep-1","desiredAPIVersion":"example.com/v1","objects":[' +
    `{"apiVersion":"example.com/v1beta1","kind":"CronTab","metadata":{"name":"deep","namespace":"default","uid":"uid-deep"},"hostPort":"db:5432","spec":{"tree":${tree}}}]}}\n`
  );
}

/** What the converted object must be, as text: the tree unchanged. */
export const deepConverted = (tree: string) =>
  `{"apiVersion":"example.com/v1","kind":"CronTab","metadata":{"name":"deep","namespace":"default","uid":"uid-deep"},"spec":{"tree":${tree}},"host":"db","port":"5432"}`;
