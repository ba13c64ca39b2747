import fc from "fast-check";
import { type Crd, isMapSchema, mapValues, type OpenApiSchema, diffSchemas } from "../kube/crd";
import { joinPath, setField, showValue } from "../json";
import { crdObjectArbitrary } from "./crd-arbitrary";
import { objectMetadata } from "./object-metadata";
import type { Sample } from "./object-round-trip";

/** Objects the CRD's schema for `version` accepts: whole ones mostly, partial ones too. */
export function crdSamples(crd: Crd, version: string, schema: Crd["versions"][number]["schema"]): fc.Arbitrary<Sample> {
  const envelope = (body: Record<string, unknown>, meta: Record<string, unknown> | undefined) => {
    const object: Record<string, unknown> = { apiVersion: `${crd.group}/${version}`, kind: crd.kind };
    if (meta) object.metadata = meta;
    for (const key of Object.keys(body)) setField(object, key, body[key]);
    return object;
  };
  const whole = fc
    .tuple(crdObjectArbitrary(schema), objectMetadata())
    .map(([body, meta]): Sample => ({ object: envelope(body, meta), partial: false }));
  // Server-side apply's partial objects: any field may be missing, metadata too (kubernetes#117356).
  const partial = fc
    .tuple(
      crdObjectArbitrary(schema, { partial: true }),
      fc.option(objectMetadata({ partial: true }), { nil: undefined }),
    )
    .map(([body, meta]): Sample => ({ object: envelope(body, meta), partial: true }));
  return fc.oneof({ weight: 3, arbitrary: whole }, { weight: 1, arbitrary: partial });
}

/** The fields the CRD's two versions declare differently: what the converters must handle. */
export function fieldsToHandle(
  from: string,
  to: string,
  schemaOf: Map<string, Crd["versions"][number]["schema"]>,
): string {
  const diff = diffSchemas(schemaOf.get(from), schemaOf.get(to));
  const lines = [
    diff.onlyA.length > 0
      ? `  only ${from} has ${diff.onlyA.join(", ")}: the apiserver drops ${diff.onlyA.length > 1 ? "them" : "it"} from a ${to} object unless the converter carries ${diff.onlyA.length > 1 ? "them" : "it"} over`
      : "",
    diff.onlyB.length > 0 ? `  only ${to} has ${diff.onlyB.join(", ")}` : "",
    ...diff.changed.map((change) => `  ${change.path} is ${change.a} in ${from}, ${change.b} in ${to}`),
    ...enumDifferences(schemaOf.get(from), schemaOf.get(to), "").map(
      ({ path, a, b }) => `  ${path} takes ${a} in ${from}, ${b} in ${to}: map each value both ways`,
    ),
  ].filter(Boolean);
  return lines.length > 0 ? `  fields to handle (from the CRD):\n${lines.map((line) => `  ${line}\n`).join("")}` : "";
}

/** Places both versions constrain with different enum lists. */
function enumDifferences(
  a: OpenApiSchema | undefined,
  b: OpenApiSchema | undefined,
  path: string,
): Array<{ path: string; a: string; b: string }> {
  if (!a || !b) return [];
  const found: Array<{ path: string; a: string; b: string }> = [];
  const list = (values: unknown[]) => values.map((value) => showValue(value, Number.POSITIVE_INFINITY)).join(", ");
  if (Array.isArray(a.enum) && Array.isArray(b.enum) && list(a.enum) !== list(b.enum))
    found.push({ path: path || "the object", a: list(a.enum), b: list(b.enum) });
  for (const key of Object.keys(a.properties ?? {}))
    if (b.properties && Object.hasOwn(b.properties, key))
      found.push(...enumDifferences(a.properties![key], b.properties[key], joinPath(path, key)));
  found.push(...enumDifferences(a.items, b.items, `${path}[]`));
  if (isMapSchema(a) && isMapSchema(b)) found.push(...enumDifferences(mapValues(a), mapValues(b), `${path}{}`));
  return found;
}
