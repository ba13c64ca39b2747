import { webhookUrlError } from "../crd-command";
import { commonName, daysLeft, readCaBundle } from "./ca-bundle";
import type { CrdConfig } from "./crd-config";
import { error, type Finding, warning } from "./finding";

/** Hosts whose certificates are publicly trusted by construction: a caBundle there only pins. */
const PUBLIC_HOSTS = [/\.workers\.dev$/, /\.lambda-url\.[a-z0-9-]+\.on\.aws$/];

const EXPIRY_WARNING_DAYS = 30;

/** How the apiserver would reach the webhook, from the manifest alone: the URL and its CA bundle. */
export function clientConfigChecks(crd: CrdConfig, now: Date): Finding[] {
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

function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname.endsWith(".localhost") || /^127\./.test(hostname) || hostname === "[::1]";
}
