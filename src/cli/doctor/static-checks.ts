import type { Registry } from "../../conversion";
import { REVIEW_VERSIONS } from "../crd-command";
import { clientConfigChecks } from "./client-config-checks";
import type { CrdConfig } from "./crd-config";
import { error, type Finding, info, warning } from "./finding";
import { registryChecks } from "./registry-checks";
import type { StackUrls } from "./stack-outputs";
import { stackUrlChecks } from "./stack-url-checks";

/**
 * Everything that can be told from the manifest and the registry (and the stack's outputs, when
 * given), without a network.
 */
export function staticChecks(crd: CrdConfig, registry: Registry, now: Date, stackUrls?: StackUrls): Finding[] {
  const definition = registry.lookup(crd.group, crd.kind);
  return [
    ...conversionChecks(crd, now, stackUrls),
    ...versionChecks(crd),
    ...registryChecks(crd, registry, definition),
  ];
}

function conversionChecks(crd: CrdConfig, now: Date, stackUrls: StackUrls | undefined): Finding[] {
  const found: Finding[] = [];
  const multiVersion = crd.versions.length > 1;
  const stanza = `crdshift crd -f ${crd.name}.yaml --url https://HOST/convert/<token> writes it`;
  if (crd.strategy === "None") {
    if (multiVersion) {
      found.push(
        error(
          "strategy-not-webhook",
          "spec.conversion.strategy is None: the apiserver only rewrites apiVersion between versions and never calls the registry's converters",
          `set strategy: Webhook with the webhook's URL (${stanza})`,
        ),
      );
    } else {
      found.push(
        info("single-version", "the CRD has one version: there is nothing to convert, and no webhook is called"),
      );
    }
    return found;
  }
  if (crd.strategy !== "Webhook") {
    return [
      error(
        "strategy-unknown",
        `spec.conversion.strategy is ${JSON.stringify(crd.strategy)}: the apiserver knows only None and Webhook`,
        `set strategy: Webhook (${stanza})`,
      ),
    ];
  }
  if (crd.preserveUnknownFields) {
    found.push(
      error(
        "preserve-unknown-fields",
        `spec.preserveUnknownFields is true${crd.apiVersion.endsWith("v1beta1") ? " (the v1beta1 default when the field is left out)" : ""}: the apiserver refuses strategy Webhook with it ("must be None if spec.preserveUnknownFields is true")`,
        "set spec.preserveUnknownFields: false, and give every version a structural schema (x-kubernetes-preserve-unknown-fields: true where fields are free-form)",
      ),
    );
  }
  found.push(...clientConfigChecks(crd, now));
  if (stackUrls) found.push(...stackUrlChecks(crd, stackUrls));
  found.push(...reviewVersionChecks(crd));
  return found;
}

function reviewVersionChecks(crd: CrdConfig): Finding[] {
  const path = crd.reviewVersionsPath;
  const listed = crd.reviewVersions;
  const fix = `set ${path}: [v1, v1beta1] (crdshift answers both)`;
  if (listed === undefined)
    return [
      error("review-versions-missing", `${path} is missing: the apiserver requires it for strategy Webhook`, fix),
    ];
  if (!listed.some((version) => REVIEW_VERSIONS.includes(version))) {
    return [
      error(
        "review-versions-unknown",
        `${path} is [${listed.join(", ")}]: neither v1 nor v1beta1, so every conversion fails with "no supported conversion review versions"`,
        fix,
      ),
    ];
  }
  if (!listed.includes("v1")) {
    return [
      warning(
        "review-versions-no-v1",
        `${path} is [${listed.join(", ")}], without v1: reviews are sent as v1beta1, the legacy form`,
        fix,
      ),
    ];
  }
  return [];
}

function versionChecks(crd: CrdConfig): Finding[] {
  const storage = crd.versions.filter((version) => version.storage).map((version) => version.name);
  if (storage.length === 1) return [];
  return [
    error(
      "storage-versions",
      storage.length === 0
        ? "no version has storage: true"
        : `${storage.length} versions have storage: true (${storage.join(", ")})`,
      "mark exactly one version storage: true; the apiserver refuses anything else",
    ),
  ];
}
