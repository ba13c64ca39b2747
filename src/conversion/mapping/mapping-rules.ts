import type * as core from "zod/v4/core";
import type { Schema } from "../converter";
import type { FieldPathOf } from "./field-path-types";
import { formatPath, parsePath, type Segment, splitAtItems } from "./field-paths";
import { DefinitionError } from "../definition-error";
import { schemaPath } from "./schema-paths";

/**
 * The declarations `mapping()` takes, and their check at module load: every path declared by
 * its version's schema, renames that keep items in their arrays, enum tables that are one to one
 * and cover the values both versions declare, defaults only for fields one version lacks.
 */

/** Each enum field's values by path, as `crdshift generate` writes them (`enums.v1beta1`). */
export type EnumValues = Readonly<Record<string, readonly string[]>>;

/** A version for `mapping()`: its schema, with its enum values when known. */
export type MappedVersion = Schema | { schema: Schema; enums?: EnumValues };

type SchemaOf<V> = V extends { schema: infer S extends Schema } ? S : V extends Schema ? V : never;
type EnumsOf<V> = V extends { enums: infer E extends EnumValues } ? E : EnumValues;
export type ObjectOf<V> = core.input<SchemaOf<V>>;

/** A field only one version has: the value it takes there when the other version sends none. */
export interface FieldDefault {
  value: unknown;
  /**
   * What happens to it on the way back, to the version without it: `"stash"` (the default)
   * keeps a value other than `value` (and its absence) in the crdshift.io/stash annotation and
   * puts it back on the next way there, so nothing is lost; `"drop"` drops it.
   */
  back?: "stash" | "drop";
}

/**
 * A value of the first version that means the same as another one of its values, both becoming
 * one value of the second (a deprecated alias: `Preempt` for `MayStopSearch`). The way back
 * gives the other value, unless `back: "stash"` keeps the alias in the crdshift.io/stash
 * annotation to give it back; `back: "lose"` declares the loss, which `crdshift check` reports.
 */
export interface EnumAlias {
  alias: string;
  back: "stash" | "lose";
}

/** An enum table: each value of the first version's field and the value it becomes, or an alias. */
export type EnumTable<Values extends string = string> = { readonly [V in Values]: string | EnumAlias };

/**
 * What mapping() is told, typed by the two versions' objects (`A`, `B`): paths are theirs, and
 * with the first version's enums (`E`) a table must name each of its values.
 */
export interface MappingRules<A = unknown, B = unknown, E extends EnumValues = EnumValues> {
  /** Fields moved or renamed, first version's path -> second's: `{ "spec.maxUnhealthy": "spec.remediation.maxUnhealthy" }`. */
  rename?: { readonly [P in FieldPathOf<A>]?: FieldPathOf<B> };
  /**
   * Enum tables by the first version's path; the way back is the inverse, so a table must be
   * one to one but for aliases (`{ alias, back }`). A value the table does not name passes
   * unchanged (an object stored before the CRD tightened its enum still converts), unless
   * `enumFallbacks` gives one.
   */
  enums?: { readonly [P in FieldPathOf<A>]?: P extends keyof E ? EnumTable<E[P][number]> : EnumTable };
  /**
   * The value for an enum value neither version declares, per direction (lossy: the check says
   * so). Never for `""`, Go's unset, which passes unchanged.
   */
  enumFallbacks?: { readonly [P in FieldPathOf<A>]?: { up?: string; down?: string } };
  /**
   * `up`: fields only the second version has, by its path; `down`: fields only the first
   * version has, by its path.
   */
  defaults?: {
    up?: { readonly [P in FieldPathOf<B>]?: FieldDefault };
    down?: { readonly [P in FieldPathOf<A>]?: FieldDefault };
  };
}

/** The same, as the load-time check reads it. */
interface LooseRules {
  rename?: Readonly<Record<string, string>>;
  enums?: Readonly<Record<string, EnumTable>>;
  enumFallbacks?: Readonly<Record<string, { up?: string; down?: string }>>;
  defaults?: { up?: Readonly<Record<string, FieldDefault>>; down?: Readonly<Record<string, FieldDefault>> };
}

export interface Rename {
  from: Segment[];
  to: Segment[];
}
export interface EnumRule {
  /** The first version's path, and the second version's (after renames); `key` the first's, written. */
  a: Segment[];
  b: Segment[];
  key: string;
  up: ReadonlyMap<string, string>;
  down: ReadonlyMap<string, string>;
  /** The first version's aliases: each and whether the way back gives it back (from the stash). */
  aliases: ReadonlyMap<string, { stash: boolean }>;
  /** The values either version declares: a fallback is for none of them. */
  declared: ReadonlySet<string>;
  fallbackUp: string | undefined;
  fallbackDown: string | undefined;
}
export interface DefaultRule {
  key: string;
  items: Segment[];
  inside: string[];
  value: unknown;
  stash: boolean;
}
export interface MappingPlan {
  renames: Rename[];
  enums: EnumRule[];
  /** Fields only the second version has, and only the first. */
  onlyB: DefaultRule[];
  onlyA: DefaultRule[];
}

export type EnumsFor<V> = EnumsOf<V>;

function sideOf(version: MappedVersion): { schema: Schema; enums: EnumValues } {
  if (typeof (version as { _zod?: unknown })._zod === "object") return { schema: version as Schema, enums: {} };
  const side = version as { schema: Schema; enums?: EnumValues };
  return { schema: side.schema, enums: side.enums ?? {} };
}

export function compileRules(a: MappedVersion, b: MappedVersion, typed: MappingRules): MappingPlan {
  const rules = typed as LooseRules;
  const [A, B] = [sideOf(a), sideOf(b)];
  const fail = (message: string): never => {
    throw new DefinitionError(`mapping: ${message}`);
  };
  const parse = (path: string, schema: Schema, which: string): Segment[] => {
    const segments = parsePath(path);
    if (typeof segments === "string") return fail(segments);
    if (schemaPath(schema, segments) === "missing") fail(`${path} is not a field of the ${which} version's schema`);
    return segments;
  };

  const renames = Object.entries(rules.rename ?? {}).map(([from, to]) => ({
    from: parse(from, A.schema, "first"),
    to: parse(to, B.schema, "second"),
  }));
  const targets = new Set<string>();
  for (const { from, to } of renames) {
    const [source, target] = [formatPath(from), formatPath(to)];
    if (targets.has(target)) fail(`two fields are renamed to ${target}`);
    targets.add(target);
    const items = formatPath(splitAtItems(from).items);
    const arrayOfTarget = formatPath(splitAtItems(to).items);
    if (items !== "" || arrayOfTarget !== "") {
      const movedArray = items === "" ? "" : renamedPath(items.slice(0, -2), rules.rename ?? {}) + "[]";
      if (movedArray !== arrayOfTarget)
        fail(
          `${source} -> ${target}: a field of an array's items stays in its items; rename the array itself (e.g. ${items.slice(0, -2) || "spec.list"} -> ${arrayOfTarget.slice(0, -2) || "spec.list"}) as well`,
        );
    }
  }

  const enums: EnumRule[] = Object.entries((rules.enums ?? {}) as Record<string, EnumTable>).map(([path, table]) => {
    const segments = parse(path, A.schema, "first");
    const bPath = renamedPath(path, rules.rename ?? {});
    const up = new Map<string, string>();
    const down = new Map<string, string>();
    const aliases = new Map<string, { stash: boolean; to: string }>();
    for (const [from, entry] of Object.entries(table)) {
      if (typeof entry === "string") {
        if (down.has(entry))
          fail(
            `${path}: the enum table maps both ${JSON.stringify(down.get(entry))} and ${JSON.stringify(from)} to ${JSON.stringify(entry)}, so the way back could not tell them apart; a table must be one to one (declare one of them an alias: { alias: ${JSON.stringify(entry)}, back: "stash" } or back: "lose")`,
          );
        down.set(entry, from);
        up.set(from, entry);
      } else {
        if (typeof entry?.alias !== "string" || (entry.back !== "stash" && entry.back !== "lose"))
          fail(`${path}: ${JSON.stringify(from)}: an alias is { alias: "value", back: "stash" } or back: "lose"`);
        if (entry.back === "stash" && splitAtItems(segments).items.length > 0)
          fail(
            `${path}: ${JSON.stringify(from)}: an alias inside an array's items cannot be stashed; give it back: "lose"`,
          );
        up.set(from, entry.alias);
        aliases.set(from, { stash: entry.back === "stash", to: entry.alias });
      }
    }
    for (const [from, { to }] of aliases)
      if (!down.has(to))
        fail(
          `${path}: ${JSON.stringify(from)} is an alias of ${JSON.stringify(to)}, which no other value of the table becomes: map it to ${JSON.stringify(to)} as a plain entry`,
        );
    const fallback = rules.enumFallbacks?.[path];
    for (const value of A.enums[path] ?? [])
      if (!up.has(value))
        fail(
          `${path}: the enum table has no entry for ${JSON.stringify(value)}, a value of the first version (a fallback is for values neither version declares)`,
        );
    for (const value of B.enums[bPath] ?? [])
      if (!down.has(value))
        fail(
          `${bPath}: nothing in the enum table becomes ${JSON.stringify(value)}, a value of the second version, so the way back has no entry for it (add one; an alias of the second version's is a mapping() written from it)`,
        );
    const allowed = B.enums[bPath];
    if (allowed)
      for (const [from, to] of up)
        if (!allowed.includes(to))
          fail(
            `${path}: the enum table maps ${JSON.stringify(from)} to ${JSON.stringify(to)}, not a value of ${bPath}`,
          );
    return {
      a: segments,
      b: parse(bPath, B.schema, "second"),
      key: path,
      up,
      down,
      aliases,
      declared: new Set([...(A.enums[path] ?? []), ...(B.enums[bPath] ?? []), ...up.keys(), ...down.keys()]),
      fallbackUp: fallback?.up,
      fallbackDown: fallback?.down,
    };
  });

  // An enum whose values differ between the versions needs a table: without one, every value
  // the other version spells differently would be copied as it is and refused there.
  const tabled = new Set(Object.keys(rules.enums ?? {}));
  for (const [path, values] of Object.entries(A.enums)) {
    const other = B.enums[renamedPath(path, rules.rename ?? {})];
    if (tabled.has(path) || other === undefined) continue;
    const missing = values.filter((value) => !other.includes(value));
    const added = other.filter((value) => !values.includes(value));
    if (missing.length > 0 || added.length > 0)
      fail(
        `${path}: its enum values differ between the versions (only the first has ${list(missing)}; only the second has ${list(added)}); give it an enums table`,
      );
  }

  const defaults = (entries: Record<string, FieldDefault> | undefined, own: Schema, other: Schema, which: string) =>
    Object.entries(entries ?? {}).map(([path, rule]) => {
      const segments = parse(path, own, which);
      if (schemaPath(other, segments) === "declared" && !renamedTo(path, rules.rename ?? {}, which))
        fail(`${path}: both versions have it, and a default is for a field only one of them has`);
      const { items, inside } = splitAtItems(segments);
      const stash = rule.back !== "drop";
      if (stash && items.length > 0)
        fail(`${path}: a field inside an array's items cannot be stashed; give it back: "drop" or convert it by hand`);
      return { key: path, items, inside, value: rule.value, stash };
    });
  return {
    renames,
    enums,
    onlyB: defaults(rules.defaults?.up, B.schema, A.schema, "second"),
    onlyA: defaults(rules.defaults?.down, A.schema, B.schema, "first"),
  };
}

/** A first-version path as the second version names it, through the longest rename that covers it. */
function renamedPath(path: string, rename: Readonly<Record<string, string>>): string {
  let best: [string, string] | undefined;
  for (const [from, to] of Object.entries(rename)) {
    const covers = path === from || path.startsWith(`${from}.`) || path.startsWith(`${from}[]`);
    if (covers && (best === undefined || from.length > best[0].length)) best = [from, to];
  }
  return best ? best[1] + path.slice(best[0].length) : path;
}

function renamedTo(path: string, rename: Readonly<Record<string, string>>, which: string): boolean {
  // The other version's field of that name moves elsewhere, so this one is new after all.
  return which === "second" ? Object.hasOwn(rename, path) : Object.values(rename).includes(path);
}

function list(values: readonly string[]): string {
  return values.length === 0 ? "none" : values.map((value) => JSON.stringify(value)).join(", ");
}
