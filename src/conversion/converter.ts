import type * as core from "zod/v4/core";

/**
 * The contract a user implements: a converter between two versions of a kind, typed by their
 * zod schemas. Kinds (kind.ts) and their routes (routes.ts) are built from these types.
 */

/** Any zod 4 schema, classic or `zod/mini`. */
export type Schema = core.$ZodType;

/** What a converter knows about the conversion it is part of. */
export interface ConversionContext {
  group: string;
  kind: string;
  /** The version this step converts from and to (one hop of a possibly longer chain). */
  from: string;
  to: string;
}

/**
 * One step between two versions. It receives the whole object (metadata is a private copy)
 * and returns the whole object in the target version; throw an Error to fail the conversion
 * with its message. Fields the target version has no place for are the converter's choice.
 */
export type Converter<From extends Schema, To extends Schema> = (
  object: core.input<From>,
  context: ConversionContext,
) => core.input<To> | Promise<core.input<To>>;

type VersionName<V> = Extract<keyof V, string>;

/** `converters[from][to]`: typed by the two versions' schemas. */
export type ConverterMap<V extends Record<string, Schema>> = {
  [F in VersionName<V>]?: { [T in Exclude<VersionName<V>, F>]?: Converter<V[F], V[T]> };
};
