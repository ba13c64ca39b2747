import type { Document } from "yaml";
import { type CrdManifest, readCrd, yamlDocuments, yamlDocumentValue } from "../kube/crd";
import type { Registry } from "../conversion";
import { kindForCrd } from "../check";
import { UsageError } from "./io";

/** Why `url` would be refused in a CRD (apiserver `ValidateWebhookURL` with https forced), or undefined. */
export function webhookUrlError(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${JSON.stringify(url)} is not a URL; desired format: https://host[/path]`;
  }
  if (parsed.protocol !== "https:")
    return "'https' is the only allowed URL scheme; desired format: https://host[/path]";
  if (parsed.hostname === "") return "host must be specified; desired format: https://host[/path]";
  if (parsed.username !== "" || parsed.password !== "") return "user information is not permitted in the URL";
  if (url.includes("#")) return "fragments are not permitted in the URL";
  if (url.includes("?")) return "query parameters are not permitted in the URL";
  return undefined;
}

export const REVIEW_VERSIONS = ["v1", "v1beta1"];

/**
 * Writes the webhook `conversion` stanza into every CustomResourceDefinition of a YAML text, in
 * the layout of its apiVersion, keeping the rest (comments included) as it was. Refuses a CRD
 * with one version, one the registry does not serve, and one whose versions differ from the
 * registry's: the webhook could not convert them.
 */
export function writeConversionStanza(
  text: string,
  name: string,
  registry: Registry,
  url: string,
): { text: string; notes: string[] } {
  const invalidUrl = webhookUrlError(url);
  if (invalidUrl) throw new UsageError(`--url: ${invalidUrl}`);
  // Integers as bigint: an int64 bound in a schema is written back as it was, not rounded.
  const list = yamlDocuments(text, name);
  const notes: string[] = [];
  let crds = 0;
  for (const [index, document] of list.entries()) {
    if (document.get("kind") !== "CustomResourceDefinition") continue;
    const where = `${name}: document ${index + 1}`;
    const crd = readCrd(yamlDocumentValue(document, where) as Record<string, unknown>, where);
    crds++;
    update(document, crd, registry, url, notes);
  }
  if (crds === 0) throw new UsageError(`${name}: no CustomResourceDefinition in it`);
  return { text: list.map((document) => document.toString({ lineWidth: 0 })).join(""), notes };
}

function update(document: Document.Parsed, crd: CrdManifest, registry: Registry, url: string, notes: string[]): void {
  const crdName = crd.name;
  const listed = crd.versions.map((version) => version.name);
  if (listed.length < 2) {
    throw new CrdError(
      `${crdName}: it has a single version (${listed.join("")}): with nothing to convert between, it needs no conversion webhook`,
    );
  }
  const found = kindForCrd(registry, crd);
  if (!found.ok) throw new CrdError(found.problem);
  if (crd.apiVersion === "apiextensions.k8s.io/v1") {
    document.setIn(
      ["spec", "conversion"],
      document.createNode({
        strategy: "Webhook",
        webhook: { conversionReviewVersions: REVIEW_VERSIONS, clientConfig: { url } },
      }),
    );
  } else {
    // v1beta1 CRDs keep the client config beside the strategy, and a webhook needs pruning on.
    document.setIn(
      ["spec", "conversion"],
      document.createNode({
        strategy: "Webhook",
        conversionReviewVersions: REVIEW_VERSIONS,
        webhookClientConfig: { url },
      }),
    );
    if (document.getIn(["spec", "preserveUnknownFields"]) !== false) {
      document.setIn(["spec", "preserveUnknownFields"], false);
      notes.push(
        `${crdName}: set spec.preserveUnknownFields to false, which the apiserver requires for a conversion webhook`,
      );
    }
  }
  notes.push(`${crdName}: conversion by webhook at ${url.replace(/\/convert\/[^/]+$/, "/convert/<token>")}`);
}

/** A CRD that cannot get the stanza (exit 1): the input was read fine, but it does not fit. */
export class CrdError extends Error {
  override name = "CrdError";
}
