import { isIP } from "node:net";
import * as tls from "node:tls";
import { type TlsPeer, tlsErrorText } from "../webhook-call";
import { commonName, daysLeft } from "./ca-bundle";
import { error, type Finding, info, warning } from "./finding";

const EXPIRY_WARNING_DAYS = 30;

export interface TlsContext {
  hostname: string;
  /** The CRD's caBundle is what the apiserver trusts; else its system roots. */
  caBundleSet: boolean;
  clientConfigPath: string;
  now: Date;
}

/**
 * The server's certificate as the apiserver's Go client would judge it: trusted by the CRD's
 * caBundle alone, or by the system roots when it is empty; a subjectAltName (Go ignores the CN);
 * TLS 1.2 or later; and how long it has left.
 */
export function tlsFindings(peer: TlsPeer, context: TlsContext): Finding[] {
  const found: Finding[] = [];
  const certificate = peer.certificate;
  const anchors = context.caBundleSet ? "the CRD's caBundle" : "the system roots (the CRD's caBundle is empty)";
  const caBundle = `${context.clientConfigPath}.caBundle`;
  if (!peer.authorized) {
    found.push(
      error(
        "tls-untrusted",
        `the server's certificate${certificate ? ` (${commonName(certificate.subject)}, issued by ${commonName(certificate.issuer)})` : ""} is not trusted by ${anchors}: ${why(peer.authorizationError, context.hostname)}; the apiserver fails every call`,
        context.caBundleSet
          ? `put the CA that signs the current certificate in ${caBundle} (base64 of its PEM); the CA may have been rotated`
          : `set ${caBundle} to the base64 of the PEM of the CA that signed the certificate, or serve a publicly trusted certificate`,
      ),
    );
  }
  if (peer.protocol && /^(SSLv|TLSv1(\.[01])?$)/.test(peer.protocol)) {
    found.push(
      error(
        "tls-version",
        `the server negotiated ${peer.protocol}; the apiserver requires TLS 1.2 or later`,
        "enable TLS 1.2 or 1.3 on the server",
      ),
    );
  }
  if (!certificate) return found;
  if (!certificate.subjectAltName) {
    found.push(
      error(
        "tls-no-san",
        `the certificate ${commonName(certificate.subject)} has no subjectAltName: Go, and so the apiserver, ignores the CN and refuses it`,
        "issue the certificate with the host as a DNS (or IP) subjectAltName",
      ),
    );
  }
  const days = daysLeft(certificate, context.now);
  const names = certificate.subjectAltName ?? commonName(certificate.subject);
  if (days < 0) {
    found.push(
      error(
        "tls-expired",
        `the certificate for ${names} expired on ${certificate.validTo}`,
        "renew the server's certificate",
      ),
    );
  } else if (days < EXPIRY_WARNING_DAYS) {
    found.push(
      warning(
        "tls-expires-soon",
        `the certificate for ${names} expires in ${days} days (${certificate.validTo})`,
        "renew the server's certificate before then, and check that renewal is automatic",
      ),
    );
  } else {
    found.push(
      info(
        "tls-certificate",
        `certificate for ${names}, issued by ${commonName(certificate.issuer)}, valid until ${certificate.validTo} (${days} days), ${peer.protocol ?? "TLS"}`,
      ),
    );
  }
  return found;
}

function why(error: string | undefined, hostname: string): string {
  if (!error) return "verification failed";
  // Node gives a code (OpenSSL's, or ERR_TLS_CERT_ALTNAME_INVALID for a host mismatch): said in Go's words where known.
  return tlsErrorText(error, hostname) ?? error;
}

/**
 * Whether the system roots alone trust the server at `url` (one TLS handshake, no request):
 * if they do, a caBundle only pins a CA that can rotate under it.
 */
export function trustedBySystemRoots(url: URL, timeoutMs = 10_000): Promise<boolean> {
  return new Promise((resolve) => {
    const host = url.hostname.replace(/^\[|\]$/g, "");
    const socket = tls.connect({
      host,
      port: Number(url.port || 443),
      ...(isIP(host) === 0 ? { servername: host } : {}),
      rejectUnauthorized: false,
      minVersion: "TLSv1.2",
    });
    const done = (trusted: boolean) => {
      clearTimeout(deadline);
      socket.destroy();
      resolve(trusted);
    };
    // A deadline for the whole handshake, not an idle timeout a dripping server keeps open.
    const deadline = setTimeout(() => done(false), timeoutMs);
    socket.once("secureConnect", () => done(socket.authorized));
    socket.once("error", () => done(false));
  });
}
