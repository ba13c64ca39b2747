import { X509Certificate } from "node:crypto";

export type CaBundle =
  | { kind: "certificates"; pem: string; certificates: X509Certificate[] }
  | { kind: "blank" }
  | { kind: "invalid"; error: string };

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * A CRD's `caBundle` (base64 of PEM, as the API prints `[]byte`) as the apiserver reads it: it
 * needs at least one parsable certificate (`AppendCertsFromPEM`); whitespace alone counts as
 * empty from Kubernetes 1.34 on.
 */
export function readCaBundle(base64: string): CaBundle {
  if (!/^[A-Za-z0-9+/=\s]*$/.test(base64)) return { kind: "invalid", error: "it is not base64" };
  const pem = Buffer.from(base64, "base64").toString("utf8");
  if (pem.trim() === "") return { kind: "blank" };
  const blocks = pem.match(PEM_CERTIFICATE) ?? [];
  if (blocks.length === 0)
    return { kind: "invalid", error: "it holds no PEM certificate (-----BEGIN CERTIFICATE-----)" };
  const certificates: X509Certificate[] = [];
  for (const [index, block] of blocks.entries()) {
    try {
      certificates.push(new X509Certificate(block));
    } catch (error) {
      return { kind: "invalid", error: `certificate ${index + 1} cannot be parsed: ${(error as Error).message}` };
    }
  }
  return { kind: "certificates", pem, certificates };
}

/** Days from `now` to the certificate's end of validity, rounded down (negative when expired). */
export function daysLeft(certificate: X509Certificate, now: Date): number {
  return Math.floor((Date.parse(certificate.validTo) - now.getTime()) / 86_400_000);
}

/** `CN=…` of a subject or issuer, else the whole distinguished name on one line. */
export function commonName(distinguishedName: string): string {
  const cn = /^CN=(.*)$/m.exec(distinguishedName);
  return cn ? cn[1]! : distinguishedName.replace(/\n/g, ", ");
}
