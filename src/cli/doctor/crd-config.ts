import { isJsonObject, type JsonObject } from "../../engine/json-values";
import { type ApiextensionsVersion, isApiextensionsVersion } from "../../protocol/api-version";
import { UsageError } from "../io";

export interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
}

/**
 * What doctor needs of a CustomResourceDefinition, read from either layout
 * (`apiextensions.k8s.io/v1`: `spec.conversion.webhook.{clientConfig,conversionReviewVersions}`;
 * `v1beta1`: `spec.conversion.{webhookClientConfig,conversionReviewVersions}`), with the
 * apiserver's defaults applied where the manifest leaves a field out.
 */
export interface CrdConfig {
  name: string;
  apiVersion: ApiextensionsVersion;
  group: string;
  kind: string;
  namespaced: boolean;
  versions: CrdVersion[];
  /** `None` when the manifest has no conversion stanza (the apiserver's default). */
  strategy: string;
  url?: string;
  service?: JsonObject;
  /** As written: base64 of PEM. */
  caBundle?: string;
  /** As written; v1beta1 CRDs default to `["v1beta1"]`, v1 CRDs have no default. */
  reviewVersions?: string[];
  /** v1beta1 CRDs default to true, v1 CRDs to false. */
  preserveUnknownFields: boolean;
  /** `status.storedVersions`; undefined when the manifest has no status (not read from a cluster). */
  storedVersions?: string[];
  /** Where the webhook fields live in this layout, for messages. */
  clientConfigPath: string;
  reviewVersionsPath: string;
}

/** Every CRD in the documents (a `List` of them included); none is a usage error. */
export function readCrds(documents: unknown[], name: string): CrdConfig[] {
  const found: JsonObject[] = [];
  for (const document of documents) {
    if (!isJsonObject(document)) continue;
    if (document.kind === "CustomResourceDefinition") found.push(document);
    else if (Array.isArray(document.items))
      found.push(
        ...document.items.filter(
          (item): item is JsonObject => isJsonObject(item) && item.kind === "CustomResourceDefinition",
        ),
      );
  }
  if (found.length === 0)
    throw new UsageError(
      `${name}: no CustomResourceDefinition in it (give the output of kubectl get crd NAME -o yaml)`,
    );
  return found.map((crd, index) => readCrd(crd, `${name}: CustomResourceDefinition ${index + 1}`));
}

function readCrd(crd: JsonObject, where: string): CrdConfig {
  const apiVersion = crd.apiVersion;
  if (!isApiextensionsVersion(apiVersion)) {
    throw new UsageError(
      `${where}: apiVersion ${JSON.stringify(apiVersion)} is not one crdshift knows (apiextensions.k8s.io/v1 or v1beta1)`,
    );
  }
  const v1 = apiVersion === "apiextensions.k8s.io/v1";
  const metadata = object(crd.metadata);
  const spec = object(crd.spec);
  const names = object(spec.names);
  const name = typeof metadata.name === "string" ? metadata.name : "(no name)";
  if (typeof spec.group !== "string" || typeof names.kind !== "string")
    throw new UsageError(`${where} (${name}): spec.group and spec.names.kind are required`);

  const listed = Array.isArray(spec.versions) ? spec.versions.filter(isJsonObject) : [];
  const versions: CrdVersion[] = listed.map((version) => ({
    name: String(version.name),
    served: version.served === true,
    storage: version.storage === true,
  }));
  // v1beta1's single `spec.version` is served and stored when `versions` is absent.
  if (versions.length === 0 && typeof spec.version === "string")
    versions.push({ name: spec.version, served: true, storage: true });

  const conversion = object(spec.conversion);
  const webhook = v1 ? object(conversion.webhook) : conversion;
  const clientConfig = object(v1 ? webhook.clientConfig : conversion.webhookClientConfig);
  const reviewVersions = Array.isArray(webhook.conversionReviewVersions)
    ? webhook.conversionReviewVersions.map(String)
    : v1
      ? undefined
      : ["v1beta1"];
  const status = object(crd.status);
  const stored = Array.isArray(status.storedVersions) ? status.storedVersions.map(String) : undefined;
  return {
    name,
    apiVersion,
    group: spec.group,
    kind: names.kind,
    namespaced: spec.scope !== "Cluster",
    versions,
    strategy: typeof conversion.strategy === "string" ? conversion.strategy : "None",
    ...(typeof clientConfig.url === "string" ? { url: clientConfig.url } : {}),
    ...(isJsonObject(clientConfig.service) ? { service: clientConfig.service } : {}),
    ...(typeof clientConfig.caBundle === "string" && clientConfig.caBundle !== ""
      ? { caBundle: clientConfig.caBundle }
      : {}),
    ...(reviewVersions ? { reviewVersions } : {}),
    preserveUnknownFields: typeof spec.preserveUnknownFields === "boolean" ? spec.preserveUnknownFields : !v1,
    ...(stored ? { storedVersions: stored } : {}),
    clientConfigPath: v1 ? "spec.conversion.webhook.clientConfig" : "spec.conversion.webhookClientConfig",
    reviewVersionsPath: v1
      ? "spec.conversion.webhook.conversionReviewVersions"
      : "spec.conversion.conversionReviewVersions",
  };
}

function object(value: unknown): JsonObject {
  return isJsonObject(value) ? value : {};
}
