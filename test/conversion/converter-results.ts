import * as z from "zod/mini";
import { readConfig } from "../../src/server/config";
import { convertBody } from "../../src/conversion/convert-review";
import { createRegistry, defineKind } from "../../src/conversion";
import { checkReply, type SentReview } from "../../src/kube/apiserver/apiserver-checks";

/**
 * Converters that return what a converter should not, and the review they come to through the
 * engine (body in, reply out). Shared by the engine's test and the Workers and Lambda ones.
 */

/** What a converter may return, as JavaScript allows: anything. */
export type AnyConverter = (object: Record<string, unknown>) => unknown;

export const GROUP = "odd.example.com";

const loose = z.looseObject({});

/** A kind whose v1 -> v2 (and v2 -> v3, for chains) converters are the ones given. */
export function oddRegistry(v1ToV2: AnyConverter, v2ToV3: AnyConverter = (object) => object) {
  return createRegistry([
    defineKind({
      group: GROUP,
      kind: "Odd",
      versions: { v1: loose, v2: loose, v3: loose },
      converters: { v1: { v2: v1ToV2 as never }, v2: { v1: (o) => o, v3: v2ToV3 as never }, v3: { v2: (o) => o } },
    }),
  ]);
}

/** An object as the apiserver sends it: its own name, uid and labels. */
export function odd(name: string, spec: unknown = { size: 1 }) {
  return {
    apiVersion: `${GROUP}/v1`,
    kind: "Odd",
    metadata: { name, namespace: "ns", uid: `uid-${name}`, labels: { owner: name } },
    spec,
  };
}

export function oddReview(objects: unknown[], to = "v2"): SentReview {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "ConversionReview",
    request: { uid: "review-1", desiredAPIVersion: `${GROUP}/${to}`, objects },
  };
}

const limits = readConfig({});

/**
 * A review through the engine: the failure's cause and message, or the converted objects once
 * the apiserver's own checks of the reply passed.
 */
export async function throughEngine(
  converter: AnyConverter,
  objects: unknown[] = [odd("a")],
  options: { to?: string; next?: AnyConverter } = {},
): Promise<{ cause?: string; message?: string; objects?: unknown[] }> {
  const sent = oddReview(objects, options.to);
  const outcome = await convertBody(oddRegistry(converter, options.next), JSON.stringify(sent), { limits });
  if (!outcome.ok) return { cause: outcome.reason, message: outcome.message };
  if (outcome.failure) return { cause: outcome.failure.cause, message: outcome.failure.message };
  const verdict = checkReply(sent, 200, outcome.text, "application/json");
  if (!verdict.ok) return { cause: "apiserver-refuses", message: verdict.error };
  return { objects: verdict.objects };
}

/** Freezes a value and everything in it, as Immer's `produce` does by default. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/** A converter with a cache: the same object for every input, built from the first. */
export function cachingConverter(withMetadata: boolean): AnyConverter {
  let cache: Record<string, unknown> | undefined;
  return (object) => {
    const { metadata, spec } = object as { metadata: unknown; spec: unknown };
    cache ??= withMetadata ? { metadata, spec: { converted: spec } } : { spec: { converted: spec } };
    return cache as never;
  };
}

/**
 * `levels` objects, each holding the next one twice (`{a: next, b: next}`): small in memory,
 * 2^levels paths as JSON writes it.
 */
export function sharedBomb(levels: number): Record<string, unknown> {
  let node: Record<string, unknown> = { leaf: "x" };
  for (let i = 0; i < levels; i++) node = { a: node, b: node };
  return node;
}

/** A proxy whose every trap throws (what it throws, the proxy itself). */
export function hostileProxy(): object {
  const traps: ProxyHandler<object> = {};
  const proxy: object = new Proxy(
    {},
    new Proxy(traps, {
      get: () => () => {
        throw proxy;
      },
    }),
  );
  return proxy;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const NAME_A = (kind: string) => `object 0 (ns/a, uid uid-a) ${kind} ${GROUP}/v1 -> ${GROUP}/v2`;

/**
 * What the Workers and Lambda tests run too, each kind's v1 -> v2 converter one misbehaviour,
 * in one registry (a Lambda bundle is built from it): the review to send, and the reply's
 * `result` and objects it must come to, as in the engine's test; or, where the words depend on
 * where a count runs out, a Failure whose message matches `failure`.
 */
export const PLATFORM_CASES: Array<{
  kind: string;
  convert: () => AnyConverter;
  result?: unknown;
  failure?: RegExp;
  objects?: unknown[];
}> = [
  {
    kind: "Cached",
    convert: () => cachingConverter(false),
    result: { status: "Success" },
    objects: ["a", "b"].map((name) => ({
      ...odd(name),
      apiVersion: `${GROUP}/v2`,
      kind: "Cached",
      spec: { converted: { size: 1 } },
    })),
  },
  {
    kind: "Frozen",
    convert: () => (object) => deepFreeze({ ...object, spec: { frozen: true } }) as never,
    result: { status: "Success" },
    objects: ["a", "b"].map((name) => ({
      ...odd(name),
      apiVersion: `${GROUP}/v2`,
      kind: "Frozen",
      spec: { frozen: true },
    })),
  },
  {
    kind: "ThrowingGetter",
    convert: () => (object) =>
      ({
        ...object,
        get spec(): unknown {
          throw new Error("spec is not ready");
        },
      }) as never,
    result: {
      status: "Failure",
      message: `object 0 (ns/a, uid uid-a) ThrowingGetter ${GROUP}/v1 -> ${GROUP}/v2: the converter's result could not be read at spec: Error: spec is not ready`,
    },
  },
  {
    kind: "ThrowingProxy",
    convert: () => (object) =>
      ({
        ...object,
        spec: new Proxy(
          {},
          {
            ownKeys: () => {
              throw new TypeError("no keys here");
            },
          },
        ),
      }) as never,
    result: {
      status: "Failure",
      message: `object 0 (ns/a, uid uid-a) ThrowingProxy ${GROUP}/v1 -> ${GROUP}/v2: the converter's result could not be read at spec: TypeError: no keys here`,
    },
  },
  {
    // Nothing in memory but a length: walked or written as JSON, it ends the process.
    kind: "SparseList",
    convert: () => (object) => ({ ...object, spec: { items: new Array(2e8) } }),
    result: {
      status: "Failure",
      message: `${NAME_A("SparseList")}: the converter's result holds a list of 200000000 items at spec.items, more than fit in 3145728 bytes of JSON, this webhook's limit per object (CRDSHIFT_MAX_OBJECT_BYTES)`,
    },
  },
  {
    // 25 objects; 2^24 paths.
    kind: "SharedBomb",
    convert: () => {
      const bomb = sharedBomb(24);
      return (object) => ({ ...object, spec: bomb });
    },
    failure: new RegExp(
      `^${escaped(`${NAME_A("SharedBomb")}: the converter's result passes 3145728 bytes of JSON at spec`)}` +
        `(\\.[ab]){1,24}` +
        `${escaped(", this webhook's limit per object (CRDSHIFT_MAX_OBJECT_BYTES), an object counted at every place it appears")}$`,
    ),
  },
  {
    kind: "ThrowsNullPrototype",
    convert: () => () => {
      throw Object.create(null);
    },
    result: {
      status: "Failure",
      message: `${NAME_A("ThrowsNullPrototype")}: the converter threw an object that cannot be converted to a string ([object Object])`,
    },
  },
  {
    kind: "RejectsHostileProxy",
    convert: () => () => Promise.reject(hostileProxy()),
    result: {
      status: "Failure",
      message: `${NAME_A("RejectsHostileProxy")}: the converter threw an object that cannot be converted to a string`,
    },
  },
];

/** One registry with a kind per case of PLATFORM_CASES. */
export function platformRegistry() {
  return createRegistry(
    PLATFORM_CASES.map(({ kind, convert }) =>
      defineKind({
        group: GROUP,
        kind,
        versions: { v1: loose, v2: loose },
        converters: { v1: { v2: convert() as never }, v2: { v1: (o) => o } },
      }),
    ),
  );
}

/** The review of a case: objects a and b of its kind, v1 -> v2. */
export function platformReview(kind: string): SentReview {
  return oddReview([
    { ...odd("a"), kind },
    { ...odd("b", { size: 2 }), kind },
  ]);
}
