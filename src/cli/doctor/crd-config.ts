import { isJsonObject, type JsonObject } from "../../json";
import { type CrdManifest, crdsIn } from "../../kube/crd";
import { UsageError } from "../io";

/**
 * What doctor needs of a CustomResourceDefinition: the manifest as crd-document.ts reads it,
 * and its conversion stanza from either layout (`apiextensions.k8s.io/v1`:
 * `spec.conversion.webhook.{clientConfig,conversionReviewVersions}`; `v1beta1`:
 * `spec.conversion.{webhookClientConfig,conversionReviewVersions}`), with the apiserver's
 * defaults applied where the manifest leaves a field out.
 */
export interface CrdConfig extends CrdManifest {
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
  /** Where the webhook fields live in this layout, for messages. */
  clientConfigPath: string;
  reviewVersionsPath: string;
}

/** Every CRD in the documents (a `List` of them included); none is a usage error. */
export function readCrdConfigs(documents: unknown[], name: string): CrdConfig[] {
  const crds = crdsIn(documents, name);
  if (crds.length === 0)
    throw new UsageError(
      `${name}: no CustomResourceDefinition in it (give the output of kubectl get crd NAME -o yaml)`,
    );
  return crds.map(withConversion);
}

function withConversion(crd: CrdManifest): CrdConfig {
  const v1 = crd.apiVersion === "apiextensions.k8s.io/v1";
  const spec = object(crd.document.spec);
  const conversion = object(spec.conversion);
  const webhook = v1 ? object(conversion.webhook) : conversion;
  const clientConfig = object(v1 ? webhook.clientConfig : conversion.webhookClientConfig);
  const reviewVersions = Array.isArray(webhook.conversionReviewVersions)
    ? webhook.conversionReviewVersions.map(String)
    : v1
      ? undefined
      : ["v1beta1"];
  return {
    ...crd,
    strategy: typeof conversion.strategy === "string" ? conversion.strategy : "None",
    ...(typeof clientConfig.url === "string" ? { url: clientConfig.url } : {}),
    ...(isJsonObject(clientConfig.service) ? { service: clientConfig.service } : {}),
    ...(typeof clientConfig.caBundle === "string" && clientConfig.caBundle !== ""
      ? { caBundle: clientConfig.caBundle }
      : {}),
    ...(reviewVersions ? { reviewVersions } : {}),
    preserveUnknownFields: typeof spec.preserveUnknownFields === "boolean" ? spec.preserveUnknownFields : !v1,
    clientConfigPath: v1 ? "spec.conversion.webhook.clientConfig" : "spec.conversion.webhookClientConfig",
    reviewVersionsPath: v1
      ? "spec.conversion.webhook.conversionReviewVersions"
      : "spec.conversion.conversionReviewVersions",
  };
}

function object(value: unknown): JsonObject {
  return isJsonObject(value) ? value : {};
}
