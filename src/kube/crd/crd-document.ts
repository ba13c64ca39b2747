import { isJsonObject } from "../../json";
import { APIEXTENSIONS_VERSIONS, type ApiextensionsVersion, isApiextensionsVersion } from "../api-version";
import { ManifestError, manifestDocuments } from "./manifests";
import type { OpenApiSchema } from "./schema";
import { schemaRefusal } from "./schema-refusals";

/**
 * The one reader of CustomResourceDefinition manifests: every command and the test kit read a
 * CRD through here, so they agree on what it says where the manifest leaves a field out.
 */

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

/** A CRD with what its manifest says beyond `Crd`, for those that read more of it (doctor). */
export interface CrdManifest extends Crd {
  apiVersion: ApiextensionsVersion;
  /** `spec.scope` is not `Cluster`. */
  namespaced: boolean;
  /** `status.storedVersions`; undefined when the manifest has no status (not read from a cluster). */
  storedVersions?: string[];
  /** The manifest as parsed, for a stanza only one reader needs (the conversion webhook's). */
  document: Record<string, unknown>;
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
  let values: unknown[];
  try {
    // The reader of every manifest: an int64 bound stays exact, as the webhook would read it.
    values = manifestDocuments(text, file);
  } catch (error) {
    throw error instanceof ManifestError ? new CrdReadError(error.message) : error;
  }
  const crds = crdsIn(values, file);
  if (crds.length === 0) throw new CrdReadError(`${file}: no CustomResourceDefinition in it`);
  return crds.map(({ name, group, kind, plural, versions }) => ({ name, group, kind, plural, versions }));
}

/**
 * The CustomResourceDefinitions among parsed documents, each document's and each list's items
 * (`kind: List`, or a `CustomResourceDefinitionList` as the API returns it); none is no error
 * here, since what to say then depends on the command.
 */
export function crdsIn(documents: readonly unknown[], file: string): CrdManifest[] {
  const crds: CrdManifest[] = [];
  for (const [index, value] of documents.entries()) {
    const items = isJsonObject(value) && Array.isArray(value.items) ? value.items : [value];
    for (const item of items) {
      if (!isJsonObject(item) || item.kind !== "CustomResourceDefinition") continue;
      crds.push(readCrd(item, `${file}: document ${index + 1}`));
    }
  }
  return crds;
}

/** One CustomResourceDefinition document; `where` names it in errors (`crd.yaml: document 2`). */
export function readCrd(document: Record<string, unknown>, where: string): CrdManifest {
  const apiVersion = document.apiVersion;
  if (!isApiextensionsVersion(apiVersion)) {
    throw new CrdReadError(
      `${where}: a CustomResourceDefinition of apiVersion ${String(apiVersion)} is not one crdshift knows (${APIEXTENSIONS_VERSIONS.join(", ")})`,
    );
  }
  const spec = record(document.spec);
  const names = record(spec.names);
  const metadata = record(document.metadata);
  const { group } = spec;
  const { kind, plural } = names;
  const name = typeof metadata.name === "string" ? metadata.name : `${String(plural)}.${String(group)}`;
  if (typeof group !== "string" || typeof kind !== "string" || typeof plural !== "string") {
    throw new CrdReadError(`${where} (${name}): spec.group, spec.names.kind and spec.names.plural are required`);
  }
  // v1beta1 CRDs may give one schema for every version (spec.validation) and a lone spec.version.
  const shared = isJsonObject(spec.validation) ? schemaOf(spec.validation) : undefined;
  const listed = Array.isArray(spec.versions) ? spec.versions.filter(isJsonObject) : [];
  const versions: CrdVersion[] =
    listed.length > 0
      ? listed.map((version) => ({
          name: String(version.name),
          // Required in both API versions, and never defaulted: the apiserver decodes a missing
          // `served` or `storage` as Go's false (apiextensions v1 and v1beta1 types.go), so a
          // version that leaves `served` out is not served.
          served: version.served === true,
          storage: version.storage === true,
          schema: (isJsonObject(version.schema) ? schemaOf(version.schema) : undefined) ?? shared,
        }))
      : typeof spec.version === "string"
        ? // v1beta1's defaulting (defaults.go): a lone spec.version is served and stored.
          [{ name: spec.version, served: true, storage: true, schema: shared }]
        : [];
  if (versions.length === 0) throw new CrdReadError(`${where} (${name}): it lists no versions`);
  // What the apiserver refuses in a schema, or crdshift cannot read, at the apiserver's field path.
  const sharedRefusal = shared && schemaRefusal(shared, "spec.validation.openAPIV3Schema");
  if (sharedRefusal) throw new CrdReadError(`${where} (${name}): ${sharedRefusal}`);
  for (const [index, version] of listed.entries()) {
    const own = isJsonObject(version.schema) ? schemaOf(version.schema) : undefined;
    const refusal = own && schemaRefusal(own, `spec.versions[${index}].schema.openAPIV3Schema`);
    if (refusal) throw new CrdReadError(`${where} (${name}): ${refusal}`);
  }
  const status = record(document.status);
  return {
    name,
    group,
    kind,
    plural,
    versions,
    apiVersion,
    namespaced: spec.scope !== "Cluster",
    ...(Array.isArray(status.storedVersions) ? { storedVersions: status.storedVersions.map(String) } : {}),
    document,
  };
}

function schemaOf(holder: Record<string, unknown>): OpenApiSchema | undefined {
  return isJsonObject(holder.openAPIV3Schema) ? (holder.openAPIV3Schema as OpenApiSchema) : undefined;
}

function record(value: unknown): Record<string, unknown> {
  return isJsonObject(value) ? value : {};
}
