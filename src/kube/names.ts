/** Kubernetes' name rules (apimachinery `validation`), shared by the registry and the guard. */

/** A lowercase RFC 1123 subdomain: an API group, a label or annotation key's prefix. */
export const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
export const DNS_SUBDOMAIN_MAX = 253;

/** An RFC 1035 label: a CRD version name. */
export const DNS_LABEL_1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
export const DNS_LABEL_MAX = 63;
/** The apiserver's budget for all of an object's annotations, keys and values (apimachinery). */
export const ANNOTATIONS_MAX_BYTES = 256 * 1024;
