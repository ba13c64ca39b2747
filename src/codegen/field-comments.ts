import { commentText } from "./identifiers";
import type { SchemaNode } from "./schema-tree";

/** Columns of a generated comment line, past its indentation. */
const WRAP = 100;

/**
 * The summary, then what the CRD says that the schema does not check: simple constraints on one
 * line, each rule (CEL, anyOf/oneOf/allOf/not) on its own; those of items and map values prefixed.
 */
export function fieldComments(field: { required: boolean; summary: string | undefined; node: SchemaNode }): string[] {
  const lines: string[] = [];
  if (field.summary) lines.push(...wrap(commentText(field.summary)));
  const simple: string[] = field.required ? ["required"] : [];
  const rules: string[] = [];
  collectNotes(field.node, "", simple, rules);
  if (simple.length > 0) lines.push(...wrap(commentText(simple.join("; "))));
  for (const rule of rules) lines.push(...wrap(commentText(rule)));
  return lines;
}

const RULE = /^(CEL|anyOf|oneOf|allOf|not) /;

function collectNotes(node: SchemaNode, prefix: string, simple: string[], rules: string[]): void {
  const own = node.notes.filter((note) => !RULE.test(note));
  if (own.length > 0) simple.push(`${prefix}${own.join("; ")}`);
  for (const note of node.notes) if (RULE.test(note)) rules.push(`${prefix}${note}`);
  if (node.type === "array") collectNotes(node.items, `${prefix}items: `, simple, rules);
  if (node.type === "map") collectNotes(node.values, `${prefix}values: `, simple, rules);
}

function wrap(text: string): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + word.length + 1 > WRAP) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}
