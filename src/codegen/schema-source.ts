import type { OpenApiSchema } from "../kube/crd";
import { fieldComments } from "./field-comments";
import { camelName, commentText, isUsableName, propertyKey, singular } from "./identifiers";
import { type SchemaNode, versionTree } from "./schema-tree";

/**
 * zod/mini source for every version of a CRD. Readable first: object schemas that occur more
 * than once (within a version or across versions) or sit deeper than a few levels become named
 * constants, defined before use; a version whose schema equals an earlier one's is that
 * constant. Every field is wrapped in `z.optional` and every object is `z.looseObject` (see the
 * header written by kind-files.ts for why).
 */
export interface SchemasSource {
  /** Helpers, constants and one `export const` per version, without imports. */
  code: string;
  /** The constant of each version, by version name. */
  constants: Map<string, string>;
}

/** Objects nested deeper than this inside one constant get a constant of their own. */
const MAX_INLINE_DEPTH = 3;
const INDENT = "  ";

const HELPERS = {
  integer: `/**
 * A JSON integer: a safe integer, or the bigint crdshift hands over for one beyond 2^53. Not
 * range-checked otherwise: the apiserver does not bound format int32 either.
 */
const integer = z.union([z.int(), z.bigint()]);`,
  anyNumber: `/** A JSON number; an integral one beyond 2^53 arrives as a bigint. */
const anyNumber = z.union([z.number(), z.bigint()]);`,
  intOrString: `/** x-kubernetes-int-or-string: a string or an integer (a bigint beyond 2^53). */
const intOrString = z.union([z.string(), z.int(), z.bigint()]);`,
} as const;

export function schemasSource(
  versions: ReadonlyArray<{ name: string; schema: OpenApiSchema | undefined }>,
): SchemasSource {
  return new Writer().write(versions);
}

class Writer {
  private readonly keys = new Map<SchemaNode, string>();
  private readonly counts = new Map<string, number>();
  /** Hoisted constants by structural key. */
  private readonly named = new Map<string, string>();
  private readonly taken = new Set<string>(["z", ...Object.keys(HELPERS), "versions"]);
  private readonly helpers = new Set<keyof typeof HELPERS>();
  private readonly definitions: string[] = [];

  write(versions: ReadonlyArray<{ name: string; schema: OpenApiSchema | undefined }>): SchemasSource {
    const trees = versions.map(({ name, schema }) => ({ name, tree: versionTree(schema) }));
    const constants = new Map<string, string>();
    for (const { name } of trees) {
      const constant = this.claim([versionConstName(name)]);
      constants.set(name, constant);
    }
    for (const { tree } of trees) this.count(tree);
    const roots = new Map<string, string>();
    const exports: string[] = [];
    for (const { name, tree } of trees) {
      const constant = constants.get(name)!;
      const key = this.keyOf(tree);
      const same = roots.get(key);
      const doc = tree.notes.length > 0 ? `/** ${name}. ${commentText(tree.notes.join("; "))} */\n` : "";
      if (same) {
        exports.push(
          `${doc}/** ${name}: the same schema as ${same}. */\nexport const ${constant} = ${same};\nexport type ${typeName(constant)} = ${typeName(same)};`,
        );
        continue;
      }
      roots.set(key, constant);
      exports.push(
        `${doc}export const ${constant} = ${this.expression(tree, 0, [], true)};\nexport type ${typeName(constant)} = z.input<typeof ${constant}>;`,
      );
    }
    const helpers = [...this.helpers].map((helper) => HELPERS[helper]);
    const code = [...helpers, ...this.definitions, ...exports].join("\n\n");
    return { code: `${code}\n`, constants };
  }

  /** Counts each object shape once per place it is written (not inside a repeat of itself). */
  private count(node: SchemaNode): void {
    if (node.type === "object") {
      const key = this.hoistKey(node);
      const seen = this.counts.get(key) ?? 0;
      this.counts.set(key, seen + 1);
      if (seen > 0) return;
      for (const field of node.fields) this.count(field.node);
    } else if (node.type === "array") this.count(node.items);
    else if (node.type === "map") this.count(node.values);
  }

  /** The structure, without notes or descriptions: two nodes with one key make the same zod schema. */
  private keyOf(node: SchemaNode): string {
    let key = this.keys.get(node);
    if (key !== undefined) return key;
    const nullable = node.nullable ? "?" : "";
    switch (node.type) {
      case "object":
        key = `{${node.fields.map((field) => `${JSON.stringify(field.key)}:${this.keyOf(field.node)}`).join(",")}}${nullable}`;
        break;
      case "array":
        key = `[${this.keyOf(node.items)}]${nullable}`;
        break;
      case "map":
        key = `map<${this.keyOf(node.values)}>${nullable}`;
        break;
      default:
        key = `${node.type}${nullable}`;
    }
    this.keys.set(node, key);
    return key;
  }

  /** Whether null is allowed is said where the constant is used, so it is not part of a constant. */
  private hoistKey(node: SchemaNode): string {
    const key = this.keyOf(node);
    return node.nullable ? key.slice(0, -1) : key;
  }

  /** `context`: the names leading here (field names, `rule` for items of `rules`), for naming constants. */
  private expression(node: SchemaNode, depth: number, context: string[], definition = false): string {
    const inner = this.bareExpression(node, depth, context, definition);
    return node.nullable && node.type !== "unknown" ? `z.nullable(${inner})` : inner;
  }

  private bareExpression(node: SchemaNode, depth: number, context: string[], definition: boolean): string {
    switch (node.type) {
      case "object": {
        if (node.fields.length === 0) return "z.looseObject({})";
        if (!definition && this.shouldHoist(node, depth)) return this.constantFor(node, context);
        const indent = INDENT.repeat(depth + 1);
        const fields = node.fields.map((field) => {
          const comments = fieldComments(field)
            .map((line) => `${indent}// ${line}\n`)
            .join("");
          const value = this.expression(field.node, depth + 1, [...context, field.key]);
          return `${comments}${indent}${propertyKey(field.key)}: z.optional(${value}),\n`;
        });
        return `z.looseObject({\n${fields.join("")}${INDENT.repeat(depth)}})`;
      }
      case "array":
        return `z.array(${this.expression(node.items, depth, [...context.slice(0, -1), singular(context.at(-1) ?? "item")])})`;
      case "map":
        return `z.record(z.string(), ${this.expression(node.values, depth, [...context.slice(0, -1), `${context.at(-1) ?? "map"}Value`])})`;
      case "string":
        return "z.string()";
      case "boolean":
        return "z.boolean()";
      case "unknown":
        return "z.unknown()";
      case "integer":
        this.helpers.add("integer");
        return "integer";
      case "number":
        this.helpers.add("anyNumber");
        return "anyNumber";
      case "int-or-string":
        this.helpers.add("intOrString");
        return "intOrString";
    }
  }

  private shouldHoist(node: SchemaNode & { type: "object" }, depth: number): boolean {
    const key = this.hoistKey(node);
    if (this.named.has(key)) return true;
    if (depth >= MAX_INLINE_DEPTH) return true;
    // A repeated shape worth a name: more than one field, or anything nested.
    return (
      (this.counts.get(key) ?? 0) > 1 &&
      (node.fields.length > 1 || node.fields.some((field) => field.node.type !== "string"))
    );
  }

  private constantFor(node: SchemaNode & { type: "object" }, context: string[]): string {
    const key = this.hoistKey(node);
    const existing = this.named.get(key);
    if (existing) return existing;
    const words = context.map(camelName);
    const name = this.claim(words.map((_, i) => camelName(words.slice(words.length - 1 - i).join("-"))));
    this.named.set(key, name);
    // The definition is printed at depth 0, after (so before, in the file) whatever it uses.
    const body = this.expression({ ...node, nullable: false }, 0, context, true);
    // The type alias is also a checkpoint: tsc resolves it here, so the types of deeply nested
    // schemas are built a few levels at a time instead of all at once (TS2589 past ~16 levels).
    this.definitions.push(`const ${name} = ${body};\nexport type ${typeName(name)} = z.input<typeof ${name}>;`);
    return name;
  }

  /** The first free candidate, else the last one numbered. */
  private claim(candidates: string[]): string {
    const usable = candidates.filter(isUsableName);
    for (const name of usable) {
      if (!this.taken.has(name)) {
        this.taken.add(name);
        return name;
      }
    }
    const base = usable.at(-1) ?? "schema";
    for (let n = 2; ; n++) {
      if (!this.taken.has(`${base}${n}`)) {
        this.taken.add(`${base}${n}`);
        return `${base}${n}`;
      }
    }
  }
}

/** The exported type of a constant: `parentRef` -> `ParentRef`. */
function typeName(constant: string): string {
  return constant.charAt(0).toUpperCase() + constant.slice(1);
}

/** A version's constant: its name when that is an identifier (`v1beta1`), else camelCase. */
function versionConstName(version: string): string {
  const name = camelName(version);
  return isUsableName(name) ? name : `version${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}
