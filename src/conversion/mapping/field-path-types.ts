/**
 * The field paths of an object type, as mapping() writes them: `spec.ports`, `spec.ports[]`,
 * `spec.ports[].protocol`. Index signatures (the unknown fields of a z.looseObject, the keys of
 * a map) have no path here. Eight objects down, any path goes: the load-time check of mapping()
 * still holds it to the schema.
 */
export type FieldPathOf<T> = 0 extends 1 & T ? string : [Paths<T, 8>] extends [never] ? string : Paths<T, 8>;

type Known<T> = {
  [K in keyof T as string extends K ? never : number extends K ? never : K]-?: T[K];
};

/** One less, down to never. */
type Less = [never, 0, 1, 2, 3, 4, 5, 6, 7];

// Past the depth typed out, anything goes below (the load-time check still applies).
type Below<V, D extends number> = [D] extends [never]
  ? `.${string}` | `[]${string}`
  : NonNullable<V> extends readonly (infer I)[]
    ? "[]" | `[]${Below<I, D>}`
    : NonNullable<V> extends Record<string, unknown>
      ? `.${Paths<NonNullable<V>, D>}`
      : never;

type Paths<T, D extends number> = [D] extends [never]
  ? never
  : { [K in keyof Known<T> & string]: K | `${K}${Below<Known<T>[K], Less[D]>}` }[keyof Known<T> & string];
