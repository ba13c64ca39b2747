import fc from "fast-check";

/** A label or annotation key the apiserver accepts: a bare name, or a DNS-subdomain prefix and a name. */
const metadataKey = fc.oneof(
  fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,6}[a-z0-9])?$/),
  fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?\.io\/[A-Za-z0-9]([A-Za-z0-9_.-]{0,8}[A-Za-z0-9])?$/),
);
const labelValue = fc.stringMatching(/^([A-Za-z0-9]([A-Za-z0-9_.-]{0,10}[A-Za-z0-9])?)?$/);

const fields = {
  name: fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,14}[a-z0-9])?$/),
  namespace: fc.constantFrom("default", "team-a"),
  uid: fc.uuid(),
  resourceVersion: fc.nat().map(String),
  generation: fc.nat(),
  labels: fc.dictionary(metadataKey, labelValue, { maxKeys: 3, noNullPrototype: true }),
  annotations: fc.dictionary(metadataKey, fc.string({ maxLength: 12 }), { maxKeys: 3, noNullPrototype: true }),
  finalizers: fc.array(fc.constant("example.com/cleanup"), { maxLength: 1 }),
};

const whole = fc.record(fields, { requiredKeys: ["name"], noNullPrototype: true });
const partial = fc.record(fields, { requiredKeys: [], noNullPrototype: true });

/**
 * `metadata` as the apiserver sends it with an object: a name, and any of a namespace, uid,
 * resourceVersion, generation, labels, annotations and finalizers, each valid. `partial`: the
 * name may be missing too, as in the partial objects server-side apply sends.
 */
export function objectMetadata(options: { partial?: boolean } = {}): fc.Arbitrary<Record<string, unknown>> {
  return options.partial ? partial : whole;
}
