import { joinPath } from "../../json";
import { mapValues, type OpenApiSchema } from "./schema";

/** A CEL rule of a CRD's schema (`x-kubernetes-validations`), with the place it applies to. */
export interface PlacedCelRule {
  /** The node the rule's `self` is: `spec`, `spec.rules[]`, `spec.labels{}` (a map's values). */
  path: string;
  rule: string;
  /** Whether it compares with the stored object (`oldSelf`): checked on updates only. */
  transition: boolean;
}

/** Every CEL rule in a version's schema, outermost first. */
export function celRules(schema: OpenApiSchema | undefined): PlacedCelRule[] {
  const rules: PlacedCelRule[] = [];
  if (schema) collect(schema, "", rules);
  return rules;
}

function collect(schema: OpenApiSchema, path: string, rules: PlacedCelRule[]): void {
  for (const { rule } of schema["x-kubernetes-validations"] ?? [])
    rules.push({ path: path || "the object", rule, transition: /\boldSelf\b/.test(rule) });
  for (const [key, child] of Object.entries(schema.properties ?? {})) collect(child, joinPath(path, key), rules);
  if (schema.items) collect(schema.items, `${path}[]`, rules);
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false)
    collect(mapValues(schema), `${path}{}`, rules);
  for (const sub of [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])])
    collect(sub, path, rules);
}
