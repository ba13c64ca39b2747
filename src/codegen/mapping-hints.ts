import { type OpenApiSchema, shapeOf, type SchemaDiff } from "../kube/crd";
import { enumValues } from "./enum-values";
import { camelName, propertyKey, wrapComment } from "./identifiers";

/**
 * What `crdshift init` can guess of a mapping() between two versions from their schemas alone:
 * a field only one version has and one only the other has, of the same type, with a similar
 * name or the same description, is probably renamed or moved; an enum whose values differ only
 * in case probably needs a table. Guesses only: the kind file shows them commented out.
 */
export interface MappingHints {
  /** First version's path -> second's. */
  renames: Array<[string, string]>;
  /** By the first version's path: each value and its counterpart. */
  enums: Array<[string, Array<[string, string]>]>;
}

/**
 * `diff` compares `second` to `first` (onlyA: only the second has it; onlyB: only the first),
 * as kind-files.ts computes it for the higher version first.
 */
export function mappingHints(
  first: OpenApiSchema | undefined,
  second: OpenApiSchema | undefined,
  diff: SchemaDiff,
): MappingHints {
  const renames: Array<[string, string]> = [];
  const taken = new Set<string>();
  // A field moved into a new object is under a path the diff names as a whole: look inside.
  const targets = diff.onlyA
    .map(mappable)
    .filter(isString)
    .flatMap((path) => withFields(second, path));
  for (const from of diff.onlyB
    .map(mappable)
    .filter(isString)
    .flatMap((path) => withFields(first, path))) {
    const a = nodeAt(first, from);
    if (a === undefined || renames.some(([done]) => from.startsWith(`${done}.`))) continue;
    const to = targets
      .filter((path) => !taken.has(path))
      .find((path) => {
        const b = nodeAt(second, path);
        return (
          b !== undefined &&
          shapeOf(a) === shapeOf(b) &&
          (similarNames(last(from), last(path)) ||
            (shapeOf(a) !== "object" && oneNamesTheOther(last(from), last(path))) ||
            sameDescription(a, b))
        );
      });
    if (to === undefined) continue;
    taken.add(to);
    renames.push([from, to]);
  }
  const enums: MappingHints["enums"] = [];
  const secondEnums = enumValues(second);
  for (const [path, values] of Object.entries(enumValues(first))) {
    const other = secondEnums[renames.find(([from]) => from === path)?.[1] ?? path];
    if (other === undefined || sameValues(values, other)) continue;
    const pairs = values.map((value) => [value, other.find((o) => o.toLowerCase() === value.toLowerCase())] as const);
    if (values.length === other.length && pairs.every(([, o]) => o !== undefined))
      enums.push([path, pairs as Array<[string, string]>]);
  }
  return { renames, enums };
}

/** A diff path as mapping() writes it (`[*]` is `[]`), or undefined under a map or a quoted key. */
function mappable(path: string): string | undefined {
  const converted = path.replaceAll("[*]", "[]");
  return /\.\*|\["/.test(converted) || converted.endsWith(".*") ? undefined : converted;
}

/** A path and the paths of the fields of the objects under it (not through arrays). */
function withFields(schema: OpenApiSchema | undefined, path: string): string[] {
  const node = nodeAt(schema, path);
  if (node === undefined || shapeOf(node) !== "object") return [path];
  return [
    path,
    ...Object.keys(node.properties ?? {})
      .filter((key) => /^[^.[\]]+$/.test(key))
      .flatMap((key) => withFields(schema, `${path}.${key}`)),
  ];
}

function isString(value: string | undefined): value is string {
  return value !== undefined;
}

function last(path: string): string {
  return path.split(".").at(-1)!.replace(/\[\]$/, "");
}

function nodeAt(schema: OpenApiSchema | undefined, path: string): OpenApiSchema | undefined {
  let node = schema;
  for (const part of path.split(".")) {
    const name = part.replace(/(\[\])+$/, "");
    node = node?.properties?.[name];
    for (let i = 0; i < (part.length - name.length) / 2; i++) node = node?.items;
  }
  return node;
}

/** Equal ignoring case, or one or two letters apart. */
function similarNames(a: string, b: string): boolean {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x === y || (Math.min(x.length, y.length) >= 4 && editDistance(x, y) <= 2);
}

/**
 * One name the other with words after it, camel case (`cohort` and `cohortName`, `replicas` and
 * `replicaCount`, a plural's `s` aside). Not a word before (`count` and `replicaCount` name
 * different things), and asked of fields that are not objects only: an object named inside
 * another's name is often its new parent (`remediationTemplate` moved into `remediation`).
 */
function oneNamesTheOther(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const stem = short.replace(/s$/, "").toLowerCase();
  const head = long.split(/(?=[A-Z])/)[0]!.toLowerCase();
  return stem.length >= 4 && head !== long.toLowerCase() && head.replace(/s$/, "") === stem;
}

function sameDescription(a: OpenApiSchema, b: OpenApiSchema): boolean {
  const text = (schema: OpenApiSchema) => schema.description?.trim().replace(/\s+/g, " ");
  return text(a) !== undefined && text(a) !== "" && text(a) === text(b);
}

function sameValues(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value) => b.includes(value));
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row.push(Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = row;
  }
  return previous[b.length]!;
}

/**
 * The mapping() that init guesses for a pair of versions, commented out: `first` is the lower
 * version, so `up` converts to the higher one.
 */
export function suggestionSource(first: string, second: string, hints: MappingHints): string {
  if (hints.renames.length === 0 && hints.enums.length === 0) return "";
  const name = camelName(`${first}-to-${second}`);
  const lines = [
    ...wrapComment(
      `TODO(crdshift): ${first} <-> ${second} look like this mapping (fields of the same type with a similar name or the same description; enum values that differ only in case). Check it, uncomment it, and use ${name}.up and ${name}.down as the converters, or inside them; mapping() refuses, when the module loads, a field either schema lacks and an enum table that is not one to one.`,
      "",
    ).split("\n"),
  ].filter(Boolean);
  const code = [
    `const ${name} = mapping(`,
    `  { schema: versions.${identifier(first)}, enums: enums.${identifier(first)} },`,
    `  { schema: versions.${identifier(second)}, enums: enums.${identifier(second)} },`,
    `  {`,
    ...(hints.renames.length > 0
      ? [
          `    rename: {`,
          ...hints.renames.map(([a, b]) => `      ${JSON.stringify(a)}: ${JSON.stringify(b)},`),
          `    },`,
        ]
      : []),
    ...(hints.enums.length > 0
      ? [
          `    enums: {`,
          ...hints.enums.map(
            ([path, pairs]) =>
              `      ${JSON.stringify(path)}: { ${pairs.map(([a, b]) => `${propertyKey(a)}: ${JSON.stringify(b)}`).join(", ")} },`,
          ),
          `    },`,
        ]
      : []),
    `  },`,
    `);`,
  ];
  return `${lines.join("\n")}\n${code.map((line) => `// ${line}`).join("\n")}\n`;
}

/** A version's property in `versions` and `enums` when it is an identifier, else bracketed. */
function identifier(version: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(version) ? version : `[${JSON.stringify(version)}]`;
}
