import { kindLabel } from "../../protocol/api-version";
import type { KindDefinition, Registry } from "../../registry";
import { sortVersions } from "../../registry";
import { servedKinds } from "../../registry/registry";
import { REVIEW_VERSIONS, webhookUrlError } from "../crd";
import { commonName, daysLeft, readCaBundle } from "./ca-bundle";
import type { CrdConfig } from "./crd-config";
import { error, type Finding, info, warning } from "./finding";

/** Hosts whose certificates are publicly trusted by construction: a caBundle there only pins. */
const PUBLIC_HOSTS = [/\.workers\.dev$/, /\.lambda-url\.[a-z0-9-]+\.on\.aws$/];

const EXPIRY_WARNING_DAYS = 30;

/** Everything that can be told from the manifest and the registry, without a network. */
export function staticChecks(crd: CrdConfig, registry: Registry, now: Date): Finding[] {
  const definition = registry.lookup(crd.group, crd.kind);
  return [...conversionChecks(crd, now), ...versionChecks(crd), ...registryChecks(crd, registry, definition)];
}

function conversionChecks(crd: CrdConfig, now: Date): Finding[] {
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
  found.push(...reviewVersionChecks(crd));
  return found;
}

function clientConfigChecks(crd: CrdConfig, now: Date): Finding[] {
  const found: Finding[] = [];
  const path = crd.clientConfigPath;
  if (crd.url !== undefined && crd.service) {
    found.push(
      error(
        "url-and-service",
        `${path} has both url and service: the apiserver requires exactly one`,
        `remove ${path}.service: crdshift is reached by URL`,
      ),
    );
  } else if (crd.service) {
    const where = `${String(crd.service.namespace ?? "?")}/${String(crd.service.name ?? "?")}`;
    found.push(
      error(
        "service-reference",
        `${path}.service points at the Service ${where}: crdshift is served by URL (Workers, a Lambda function URL, or your own host), not as a Service in the cluster`,
        `replace ${path}.service with url: https://HOST/convert/<token>`,
      ),
    );
  } else if (crd.url === undefined) {
    found.push(
      error(
        "no-url",
        `${path} has no url: the apiserver requires a url or a service`,
        `set ${path}.url to the webhook's https URL`,
      ),
    );
  }
  if (crd.url !== undefined) {
    const invalid = webhookUrlError(crd.url);
    if (invalid) {
      found.push(
        error(
          "url-invalid",
          `${path}.url: ${invalid}`,
          "give the https URL of the deployed webhook, with the path token if one is set: https://HOST/convert/<token>",
        ),
      );
    } else if (isLoopback(new URL(crd.url).hostname)) {
      found.push(
        warning(
          "url-loopback",
          `${path}.url points at ${new URL(crd.url).hostname}: that is the apiserver's own host, not your webhook`,
          "use the webhook's public https URL; probe a local server with --url instead",
        ),
      );
    }
  }
  if (crd.caBundle !== undefined) found.push(...caBundleChecks(crd, crd.caBundle, now));
  return found;
}

function caBundleChecks(crd: CrdConfig, base64: string, now: Date): Finding[] {
  const path = `${crd.clientConfigPath}.caBundle`;
  const bundle = readCaBundle(base64);
  if (bundle.kind === "invalid") {
    return [
      error(
        "cabundle-invalid",
        `${path} is not usable: ${bundle.error}; the apiserver refuses it`,
        `set ${path} to the base64 of the PEM certificate of the CA that signed the webhook's certificate, or remove it for a publicly trusted one`,
      ),
    ];
  }
  if (bundle.kind === "blank") {
    return [
      warning(
        "cabundle-blank",
        `${path} holds only whitespace: Kubernetes 1.34 and later treat it as empty (system roots), earlier versions refuse it`,
        `remove ${path}`,
      ),
    ];
  }
  const found: Finding[] = [];
  const host = crd.url && !webhookUrlError(crd.url) ? new URL(crd.url).hostname : undefined;
  if (host && PUBLIC_HOSTS.some((pattern) => pattern.test(host))) {
    found.push(
      warning(
        "cabundle-pins-public-ca",
        `${path} is set for ${host}, whose certificate is publicly trusted: the bundle pins a CA that the platform rotates without notice, and then every conversion fails`,
        `remove ${path}: with it empty the apiserver uses its system roots`,
      ),
    );
  }
  for (const certificate of bundle.certificates) {
    const days = daysLeft(certificate, now);
    const who = commonName(certificate.subject);
    if (days < 0) {
      found.push(
        error(
          "cabundle-expired",
          `${path}: the CA certificate ${who} expired on ${certificate.validTo}`,
          `put the CA's renewed certificate in ${path}`,
        ),
      );
    } else if (days < EXPIRY_WARNING_DAYS) {
      found.push(
        warning(
          "cabundle-expires-soon",
          `${path}: the CA certificate ${who} expires in ${days} days (${certificate.validTo})`,
          `put the CA's renewed certificate in ${path} before then`,
        ),
      );
    }
  }
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

function registryChecks(crd: CrdConfig, registry: Registry, definition: KindDefinition | undefined): Finding[] {
  const label = kindLabel(crd);
  if (!definition) {
    const served = servedKinds(registry);
    return [
      error(
        "kind-not-in-registry",
        `${label} is not in the registry (it serves ${served}): the webhook fails every conversion of it`,
        `add a defineKind for ${label} to the registry, or point --registry at the module that has it`,
      ),
    ];
  }
  const found: Finding[] = [];
  const registered = new Set(definition.versions.keys());
  for (const version of crd.versions) {
    if (registered.has(version.name)) continue;
    if (version.served) {
      found.push(
        error(
          "served-version-not-in-registry",
          `${version.name} is served, but the registry lacks it: every read of ${label} in ${version.name}, or of objects stored in it, fails`,
          `add ${version.name} to ${label}'s versions in the registry, with converters`,
        ),
      );
    } else if (!crd.storedVersions?.includes(version.name)) {
      found.push(
        warning(
          "listed-version-not-in-registry",
          `${version.name} is listed (not served), but the registry lacks it: apiservers before Kubernetes 1.35 still convert objects into every listed version`,
          `add ${version.name} to the registry, or remove it from spec.versions`,
        ),
      );
    }
  }
  if (crd.storedVersions === undefined) {
    found.push(
      info(
        "stored-versions-unknown",
        "the manifest has no status.storedVersions, so the versions objects are stored in were not checked; give kubectl get crd NAME -o yaml to check them",
      ),
    );
  } else {
    for (const version of crd.storedVersions) {
      if (registered.has(version)) continue;
      found.push(
        error(
          "stored-version-not-in-registry",
          `status.storedVersions lists ${version}, which the registry lacks: objects stored in ${version} cannot be converted, so reading them in any other version fails`,
          `keep ${version} in the registry (with a converter to a version it has) until every object is rewritten in the storage version and ${version} is removed from status.storedVersions`,
        ),
      );
    }
  }
  const listed = new Set(crd.versions.map((version) => version.name));
  const extra = sortVersions([...registered].filter((version) => !listed.has(version)));
  if (extra.length > 0) {
    found.push(
      warning(
        "registry-version-not-in-crd",
        `the registry has ${extra.join(", ")} for ${label}, which the CRD does not list: the apiserver never asks for ${extra.length === 1 ? "it" : "them"}`,
        `add ${extra.join(", ")} to spec.versions when ready, or check the CRD is the current one`,
      ),
    );
  }
  return found;
}

function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname.endsWith(".localhost") || /^127\./.test(hostname) || hostname === "[::1]";
}
