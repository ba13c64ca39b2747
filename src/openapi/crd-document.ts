import { parseAllDocuments } from "yaml";
import { APIEXTENSIONS_VERSIONS, isApiextensionsVersion } from "../protocol/api-version";
import type { OpenApiSchema } from "./schema";

/** One CustomResourceDefinition, as far as crdshift needs it. */
export interface Crd {
  /** metadata.name, `<plural>.<group>`. */
  name: string;
  group: string;
  kind: string;
  plural: string;
  versions: CrdVersion[];
}

export interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  /** The version's `openAPIV3Schema`; undefined when the CRD gives none (a v1beta1 CRD may not). */
  schema: OpenApiSchema | undefined;
}

/** A file that holds no usable CustomResourceDefinition (a usage problem, exit 2). */
export class CrdReadError extends Error {
  override name = "CrdReadError";
}

/**
 * Every CustomResourceDefinition of a YAML or JSON text: several documents, or a `List` as
 * `kubectl get crd -o yaml` prints it. Other documents are skipped; a text with no CRD at all
 * is an error, named after `file`.
 */
export function readCrds(text: string, file: string): Crd[] {
  const documents = parseAllDocuments(text);
  const crds: Crd[] = [];
  for (const [index, document] of (Array.isArray(documents) ? documents : [documents]).entries()) {
    if (document.errors.length > 0)
      throw new CrdReadError(`${file}: document ${index + 1} is not valid YAML: ${document.errors[0]!.message}`);
    const value: unknown = document.toJS({ maxAliasCount: 1000 });
    const items = isRecord(value) && value.kind === "List" && Array.isArray(value.items) ? value.items : [value];
    for (const item of items) {
      if (!isRecord(item) || item.kind !== "CustomResourceDefinition") continue;
      crds.push(readCrd(item, `${file}: document ${index + 1}`));
    }
  }
  if (crds.length === 0) throw new CrdReadError(`${file}: no CustomResourceDefinition in it`);
  return crds;
}

function readCrd(document: Record<string, unknown>, where: string): Crd {
  const apiVersion = document.apiVersion;
  if (!isApiextensionsVersion(apiVersion)) {
    throw new CrdReadError(
      `${where}: a CustomResourceDefinition of apiVersion ${String(apiVersion)} is not one crdshift knows (${APIEXTENSIONS_VERSIONS.join(", ")})`,
    );
  }
  const spec = isRecord(document.spec) ? document.spec : {};
  const names = isRecord(spec.names) ? spec.names : {};
  const metadata = isRecord(document.metadata) ? document.metadata : {};
  const { group } = spec;
  const { kind, plural } = names;
  const name = typeof metadata.name === "string" ? metadata.name : `${String(plural)}.${String(group)}`;
  if (typeof group !== "string" || typeof kind !== "string" || typeof plural !== "string") {
    throw new CrdReadError(`${where} (${name}): spec.group, spec.names.kind and spec.names.plural are required`);
  }
  // v1beta1 CRDs may give one schema for every version (spec.validation) and a lone spec.version.
  const shared = isRecord(spec.validation) ? schemaOf(spec.validation) : undefined;
  const listed = Array.isArray(spec.versions) ? spec.versions.filter(isRecord) : [];
  const versions: CrdVersion[] =
    listed.length > 0
      ? listed.map((version) => ({
          name: String(version.name),
          served: version.served !== false,
          storage: version.storage === true,
          schema: (isRecord(version.schema) ? schemaOf(version.schema) : undefined) ?? shared,
        }))
      : typeof spec.version === "string"
        ? [{ name: spec.version, served: true, storage: true, schema: shared }]
        : [];
  if (versions.length === 0) throw new CrdReadError(`${where} (${name}): it lists no versions`);
  return { name, group, kind, plural, versions };
}

function schemaOf(holder: Record<string, unknown>): OpenApiSchema | undefined {
  return isRecord(holder.openAPIV3Schema) ? (holder.openAPIV3Schema as OpenApiSchema) : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
