import { isJsonObject } from "../../json";
import type { ConversionContext } from "../converter";
import { formatPath, getAt, hasAt, removeAt, type Segment, setAt, splitAtItems, updateAt } from "./field-paths";
import {
  compileRules,
  type DefaultRule,
  type EnumRule,
  type EnumsFor,
  type MappedVersion,
  type MappingPlan,
  type MappingRules,
  type ObjectOf,
  type Rename,
} from "./mapping-rules";
import { STASH_ANNOTATION, stashFields, unstashFields } from "../stash";

/**
 * Declared field mappings between two versions of a kind, converters for both directions from
 * one declaration: renamed or moved fields, enum tables (the way back is the inverse), defaults
 * for a field one version lacks. `up` converts from the first version to the second, `down`
 * back. Use them as the converters, or inside hand-written ones for what a declaration cannot
 * say:
 *
 *   const beta = mapping(
 *     { schema: versions.v1beta1, enums: enums.v1beta1 },
 *     { schema: versions.v1beta2, enums: enums.v1beta2 },
 *     { rename: { "spec.maxUnhealthy": "spec.remediation.maxUnhealthy" },
 *       enums: { "spec.mode": { Small: "small", Large: "large" } } },
 *   );
 *   converters: { v1beta1: { v1beta2: beta.up }, v1beta2: { v1beta1: beta.down } }
 *
 * Everything else in the object is copied as it is. The declaration is checked when the module
 * loads (a DefinitionError): paths the schemas do not declare, an enum table that is not one to
 * one or leaves out a value either version declares, enum values that differ with no table.
 * The input is never modified; a field that is absent stays absent. Paths name fields with
 * dots, and `[]` for each item of an array: `spec.ports[].protocol`.
 */
export interface Mapping<A, B> {
  up(object: A, context?: ConversionContext): B;
  down(object: B, context?: ConversionContext): A;
}

export function mapping<const From extends MappedVersion, const To extends MappedVersion>(
  from: From,
  to: To,
  rules: MappingRules<ObjectOf<From>, ObjectOf<To>, EnumsFor<From>>,
): Mapping<ObjectOf<From>, ObjectOf<To>> {
  const plan = compileRules(from, to, rules as MappingRules);
  const up = (object: ObjectOf<From>) => convert(object, plan, "up") as ObjectOf<To>;
  // What the way up loses on purpose, for the round-trip check to accept and report.
  const losses: DeclaredLoss[] = plan.enums.flatMap((rule) =>
    [...rule.aliases]
      .filter(([, alias]) => !alias.stash)
      .map(([value]) => ({ path: rule.key, from: value, to: rule.down.get(rule.up.get(value)!)! })),
  );
  if (losses.length > 0) Object.defineProperty(up, DECLARED_LOSSES, { value: losses });
  return { up, down: (object) => convert(object, plan, "down") as ObjectOf<From> };
}

/**
 * On a converter mapping() made: the enum aliases it declared lost on the way back (`back: "lose"`).
 * A registered symbol: the registry a CLI loads may come with its own copy of this module.
 */
export const DECLARED_LOSSES = Symbol.for("crdshift.declaredLosses");

/** An alias at a field of the converter's source version that comes back as another value. */
export interface DeclaredLoss {
  path: string;
  from: string;
  to: string;
}

/** The losses a converter declared, if mapping() made it. */
export function declaredLosses(converter: unknown): readonly DeclaredLoss[] {
  return (
    ((typeof converter === "function" && (converter as { [DECLARED_LOSSES]?: DeclaredLoss[] })[DECLARED_LOSSES]) ||
      undefined) ??
    []
  );
}

type Json = Record<string, unknown>;

function convert(object: unknown, plan: MappingPlan, direction: "up" | "down"): unknown {
  if (!isJsonObject(object)) return object;
  const up = direction === "up";
  // The fields the target lacks leave first (to the stash), the ones only it has arrive last.
  const [leaving, arriving] = up ? [plan.onlyA, plan.onlyB] : [plan.onlyB, plan.onlyA];
  const stash: Json = {};
  let out: Json = object;
  for (const rule of leaving) out = take(out, rule, stash);
  if (up) out = plan.enums.reduce<Json>((next, rule) => translate(next, rule, true, stash), out);
  out = moveAll(out, up ? plan.renames : plan.renames.map(({ from, to }) => ({ from: to, to: from })));
  if (!up)
    out = giveAliases(
      plan.enums.reduce<Json>((next, rule) => translate(next, rule, false, stash), out),
      plan.enums,
    );
  out = give(out, arriving);
  return Object.keys(stash).length > 0 ? stashFields(out, stash) : out;
}

/** Renames grouped by the array whose items they move within, innermost arrays first. */
function moveAll(object: Json, renames: Rename[]): Json {
  const groups = new Map<string, { items: Segment[]; moves: Array<{ from: string[]; to: string[] }> }>();
  for (const { from, to } of renames) {
    const source = splitAtItems(from);
    const key = formatPath(source.items);
    const group = groups.get(key) ?? { items: source.items, moves: [] };
    group.moves.push({ from: source.inside, to: splitAtItems(to).inside });
    groups.set(key, group);
  }
  const ordered = [...groups.values()].sort((x, y) => y.items.length - x.items.length);
  let out: unknown = object;
  for (const { items, moves } of ordered) {
    out = updateAt(out, items, (item) => {
      if (!isJsonObject(item)) return item;
      // Read every source before writing any target, so that two fields can trade places.
      const found = moves
        .filter(({ from }) => hasAt(item, from))
        .map((move) => ({ ...move, value: getAt(item, move.from) }));
      let next = item;
      for (const { from } of found) next = removeAt(next, from);
      for (const { to, value } of found) next = setAt(next, to, value);
      return found.length > 0 ? next : item;
    });
  }
  return out as Json;
}

/**
 * An enum field's value through its table. An alias to be given back waits in the stash on the
 * way up (a field in no array's items, as the load-time check holds). A value the table does not
 * name passes unchanged, or becomes the fallback if neither version declares it (`""`, Go's
 * unset, never).
 */
function translate(object: Json, rule: EnumRule, up: boolean, stash: Json): Json {
  const table = up ? rule.up : rule.down;
  const fallback = up ? rule.fallbackUp : rule.fallbackDown;
  if (up && [...rule.aliases.values()].some((alias) => alias.stash)) {
    const value = getAt(object, rule.a as string[]);
    if (typeof value === "string" && rule.aliases.get(value)?.stash) stash[aliasKey(rule)] = value;
  }
  return updateAt(object, rule.a, (value) => {
    if (typeof value !== "string") return value;
    const mapped = table.get(value);
    if (mapped !== undefined) return mapped;
    return value === "" || rule.declared.has(value) ? value : (fallback ?? value);
  }) as Json;
}

/** The stash's key for a field's alias: its path, marked apart from a default-only field's. */
function aliasKey(rule: EnumRule): string {
  return `${rule.key}#alias`;
}

/** On the way down: the aliases the way up stashed, back where the field still means the same. */
function giveAliases(object: Json, rules: EnumRule[]): Json {
  const stashing = rules.filter((rule) => [...rule.aliases.values()].some((alias) => alias.stash));
  if (stashing.length === 0 || !hasStash(object)) return object;
  const { object: rest, fields } = unstashFields(object);
  const others = { ...fields };
  let out = rest;
  for (const rule of stashing) {
    const alias = fields[aliasKey(rule)];
    delete others[aliasKey(rule)];
    const names = rule.a as string[];
    const value = getAt(out, names);
    // Only if the field still holds the value the alias stands for: else it changed since.
    if (typeof alias === "string" && typeof value === "string" && rule.up.get(alias) === rule.up.get(value))
      out = setAt(out, names, alias);
  }
  return Object.keys(others).length > 0 ? stashFields(out, others) : out;
}

/** Takes out a field the target version lacks: a value other than its default goes to the stash. */
function take(object: Json, rule: DefaultRule, stash: Json): Json {
  if (rule.items.length > 0) {
    return updateAt(object, rule.items, (item) =>
      isJsonObject(item) ? removeAt(item, rule.inside, "keep") : item,
    ) as Json;
  }
  const present = hasAt(object, rule.inside);
  const value = getAt(object, rule.inside);
  // Its absence needs keeping only where the way back would set the default: inside an object
  // that is there.
  const around = rule.inside.length === 1 || isJsonObject(getAt(object, rule.inside.slice(0, -1)));
  if (rule.stash && (present ? !sameJson(value, rule.value) : around)) stash[rule.key] = present ? { value } : {};
  return present ? removeAt(object, rule.inside, "keep") : object;
}

/** Puts back the fields only the target version has: from the stash, else their default. */
function give(object: Json, rules: DefaultRule[]): Json {
  if (rules.length === 0) return object;
  let out = object;
  let kept: Json = {};
  if (rules.some((rule) => rule.stash) && hasStash(out)) {
    const { object: rest, fields } = unstashFields(out);
    const others = Object.fromEntries(Object.entries(fields).filter(([key]) => !rules.some((r) => r.key === key)));
    kept = fields;
    out = Object.keys(others).length > 0 ? stashFields(rest, others) : rest;
  }
  for (const rule of rules) {
    const stashed = kept[rule.key];
    if (rule.stash && isJsonObject(stashed)) {
      // Stashed: the value it had, or its absence.
      if (Object.hasOwn(stashed, "value")) out = setAt(out, rule.inside, stashed.value);
      continue;
    }
    // Only where the object around it is there: an object without a spec gets none.
    const field = rule.inside.at(-1)!;
    const parent = [...rule.items, ...rule.inside.slice(0, -1)];
    out = updateAt(out, parent, (around) =>
      isJsonObject(around) && !Object.hasOwn(around, field)
        ? { ...around, [field]: structuredClone(rule.value) }
        : around,
    ) as Json;
  }
  return out;
}

function hasStash(object: Json): boolean {
  const metadata = object.metadata;
  return (
    isJsonObject(metadata) &&
    isJsonObject(metadata.annotations) &&
    Object.hasOwn(metadata.annotations, STASH_ANNOTATION)
  );
}

function sameJson(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (Array.isArray(x) && Array.isArray(y)) return x.length === y.length && x.every((item, i) => sameJson(item, y[i]));
  if (isJsonObject(x) && isJsonObject(y)) {
    const keys = Object.keys(x);
    return (
      keys.length === Object.keys(y).length && keys.every((key) => Object.hasOwn(y, key) && sameJson(x[key], y[key]))
    );
  }
  return false;
}
