import { canonicalJson } from "../kube/crd";
import { decodeJson, encodeJson } from "../json";
import { type KindDefinition, messageOf, refuse } from "../conversion";
import { roundTripDifference } from "./round-trip-comparison";

/**
 * What the apiserver assumes of a converter beyond its result: that it may call it again (a
 * retry, a second read, a watch) and get the same answer, and that conversions do not reach
 * into each other. Each converter of the route `from -> to` is called twice on separate copies
 * of the same input: a converter that changes its input, changes an earlier result, answers
 * differently, or returns the very object it returned for an input that differs (state shared
 * between calls) is reported, in words. The same object for the same input is a memo, and
 * allowed: the engine reads each result into its own copy and never writes into it. It also
 * hands converters a private copy, so none of the rest corrupts a review by itself; it corrupts
 * the next one, or the converter's own cache.
 */
export async function purityProblem(
  kind: KindDefinition,
  object: Record<string, unknown>,
  from: string,
  to: string,
): Promise<string | undefined> {
  const route = kind.route(from, to);
  if (!route) return undefined;
  let input: unknown = copyOf(object);
  for (const step of route) {
    const context = { group: kind.group, kind: kind.kind, from: step.from, to: step.to, refuse };
    const name = `the ${step.from} -> ${step.to} converter`;
    const before = canonicalJson(input);
    const firstInput = copyOf(input);
    let first: unknown;
    try {
      first = await step.convert(firstInput as never, context);
    } catch {
      return undefined; // a refusal or a bug: the conversion through the engine reports it
    }
    if (canonicalJson(firstInput) !== before)
      return `${name} changed its input (${roundTripDifference(input, firstInput) ?? "its keys"}): converters must build their result, not edit what they were given`;
    const firstText = canonicalJson(first);
    let second: unknown;
    try {
      second = await step.convert(copyOf(input) as never, context);
    } catch (error) {
      return `${name} threw on a second call with the same input, not on the first: ${messageOf(error)}`;
    }
    if (typeof first === "object" && first !== null) {
      // Seen across calls: a memo answers equal inputs with one object, shared state any input.
      const asked = `${name}\n${before}`;
      const earlier = answeredFor.get(first);
      if (earlier !== undefined && earlier !== asked)
        return `${name} returned the same object for two inputs that differ: it keeps state between conversions, and each result overwrites the last`;
      answeredFor.set(first, asked);
    }
    if (canonicalJson(first) !== firstText)
      return `${name} changed its earlier result on a second call: it keeps state between conversions`;
    if (canonicalJson(second) !== firstText)
      return `${name} is not deterministic: two calls with the same input gave different results (${roundTripDifference(first, second) ?? "in key order"}); the apiserver may convert an object again and must get the same answer`;
    input = first;
  }
  return undefined;
}

/** Each object a converter returned, with the converter and the input it answered. */
const answeredFor = new WeakMap<object, string>();

/** A deep copy as the webhook would decode it: integers beyond 2^53 kept, `__proto__` as data. */
function copyOf(value: unknown): unknown {
  return decodeJson(encodeJson(value)).value;
}
