import { quote, utf8Length } from "../json";
import { ANNOTATIONS_MAX_BYTES, DNS_SUBDOMAIN, DNS_SUBDOMAIN_MAX } from "./names";
/**
 * The apiserver's rules for labels and annotations on a converted object (apimachinery
 * `ValidateLabels`, `ValidateAnnotations`), with its wording, so a bad map fails here with a
 * message that names the object instead of failing inside the apiserver.
 */

const NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

const NAME_CHARS =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/** Why `key` is not a qualified name (`[prefix/]name`), or undefined if it is one. */
function qualifiedNameError(key: string): string | undefined {
  const parts = key.split("/");
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) return "prefix part must be non-empty";
    if (prefix.length > DNS_SUBDOMAIN_MAX) return "prefix part must be no more than 253 characters";
    if (!DNS_SUBDOMAIN.test(prefix)) {
      return "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
    }
  } else {
    return `a qualified name ${NAME_CHARS}, with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`;
  }
  if (name.length === 0) return "name part must be non-empty";
  if (name.length > 63) return "name part must be no more than 63 characters";
  if (!NAME_PART.test(name)) return `name part ${NAME_CHARS}`;
  return undefined;
}

function labelValueError(value: string): string | undefined {
  if (value.length > 63) return "must be no more than 63 characters";
  if (!LABEL_VALUE.test(value)) return `a valid label must be an empty string or ${NAME_CHARS}`;
  return undefined;
}

export function labelsError(labels: Record<string, string>): string | undefined {
  for (const [key, value] of Object.entries(labels)) {
    const keyError = qualifiedNameError(key);
    if (keyError) return `metadata.labels: Invalid value: ${quote(key)}: ${keyError}`;
    const valueError = labelValueError(value);
    if (valueError) return `metadata.labels: Invalid value: ${quote(value)}: ${valueError}`;
  }
  return undefined;
}

export function annotationsError(annotations: Record<string, string>): string | undefined {
  let bytes = 0;
  for (const [key, value] of Object.entries(annotations)) {
    // The apiserver checks annotation keys lower-cased.
    const keyError = qualifiedNameError(key.toLowerCase());
    if (keyError) return `metadata.annotations: Invalid value: ${quote(key)}: ${keyError}`;
    bytes += utf8Length(key) + utf8Length(value);
  }
  if (bytes > ANNOTATIONS_MAX_BYTES) {
    return `metadata.annotations: Too long: must have at most ${ANNOTATIONS_MAX_BYTES} bytes (these have ${bytes})`;
  }
  return undefined;
}
