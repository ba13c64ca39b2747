import type * as core from "zod/v4/core";
import type { Refusal } from "./refusal";

/**
 * The contract a user implements: a converter between two versions of a kind, typed by their
 * zod schemas. Kinds (kind.ts) and their routes (routes.ts) are built from these types.
 */

/** Any zod 4 schema, classic or `zod/mini`. */
export type Schema = core.$ZodType;

/** What a converter knows about the conversion it is part of. */
export interface ConversionContext<Reason extends string = string> {
  group: string;
  kind: string;
  /** The version this step converts from and to (one hop of a possibly longer chain). */
  from: string;
  to: string;
  /**
   * A refusal for one of the reasons this pair declares (defineKind's `refusals`), to throw:
   * `throw refuse("no-port", \`hostPort ${hostPort} has no port\`)`. Typed by the declaration.
   */
  refuse(reason: Reason, message: string): Refusal;
}

/**
 * One step between two versions. It receives the whole object (metadata is a private copy)
 * and returns the whole object in the target version; throw an Error to fail the conversion
 * with its message (`context.refuse(reason, message)` for a refusal the pair declares). Fields
 * the target version has no place for are the converter's choice.
 */
export type Converter<From extends Schema, To extends Schema, Reason extends string = string> = (
  object: core.input<From>,
  context: ConversionContext<Reason>,
) => core.input<To> | Promise<core.input<To>>;

type VersionName<V> = Extract<keyof V, string>;

/** A kind's declared refusals: per ordered pair `"FROM->TO"`, each reason's name and why. */
export type RefusalDeclarations = Record<string, Record<string, string>>;

/** The reasons `refusals` declares for `from -> to`: `never` where it declares none. */
export type ReasonOf<R, P extends string> =
  R extends Record<string, unknown> ? (P extends keyof R ? Extract<keyof R[P], string> : never) : never;

/** `converters[from][to]`: typed by the two versions' schemas, and the pair's declared refusal reasons. */
export type ConverterMap<V extends Record<string, Schema>, R = Record<never, never>> = {
  [F in VersionName<V>]?: {
    [T in Exclude<VersionName<V>, F>]?: Converter<V[F], V[T], ReasonOf<R, `${F}->${T}`>>;
  };
};
