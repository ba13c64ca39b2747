import type { OpenApiSchema } from "./schema";

/**
 * The string formats the kube-apiserver validates in a CRD's schema (the list the
 * apiextensions `JSONSchemaProps.format` documentation gives, from kube-openapi's strfmt), each
 * as a check of what the apiserver accepts. Where Go's parsers accept more than the format's
 * name suggests, the check accepts it too: a check stricter than the apiserver would report a
 * correct converter. Formats not listed (`password`, anything unknown) are not checked by the
 * apiserver either; the numeric ones are below.
 */
export function formatProblem(format: string, text: string): string | undefined {
  const check = FORMATS[format];
  if (check === undefined || check(text)) return undefined;
  return `is not a valid ${format}`;
}

export const INT32_MIN = -(2 ** 31);
export const INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * The numeric formats Kubernetes 1.36 keeps on a CRD and checks (kubernetes#136582, which stopped
 * stripping them): `int32` and `int64` on an integer field bound its range; `float` on a number
 * field is a 32-bit float, so a magnitude that rounds past the largest one is refused (Go's
 * strconv.ParseFloat at 32 bits); `double` holds any finite number. Each applies to its own type
 * only: `format: int32` on a number field is stripped, and checks nothing.
 */
export function numberFormatProblem(schema: OpenApiSchema, value: number | bigint): string | undefined {
  const { type, format } = schema;
  if (type === "integer" && format === "int32" && (value < INT32_MIN || value > INT32_MAX))
    return `is out of range for format int32 (${INT32_MIN} to ${INT32_MAX})`;
  if (type === "integer" && format === "int64" && (value < INT64_MIN || value > INT64_MAX))
    return `is out of range for format int64 (${INT64_MIN} to ${INT64_MAX})`;
  if (type === "number" && format === "float" && !Number.isFinite(Math.fround(Number(value))))
    return "is out of range for format float (a 32-bit float, at most 3.4028234663852886e+38 in magnitude)";
  return undefined;
}

const HEX = /^[0-9a-fA-F]+$/;
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const versionedUuid = (version: string) =>
  new RegExp(`^[0-9a-f]{8}-?[0-9a-f]{4}-?${version}[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`, "i");
const UUID3 = versionedUuid("3");
const UUID4 = versionedUuid("4");
const UUID5 = versionedUuid("5");
const HOSTNAME_LABEL = /^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/;
// kube-openapi's strfmt: a full date, a "t" in either case, hh:mm:ss, any fraction (its pattern's
// "." matches any character), and a zone; no date alone, no space, no local time.
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;
const DURATION_GO = /^[-+]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$|^[-+]?0$/;
const DURATION_WORDS =
  /^(?:\s*\d+\s*(?:ns|us|µs|ms|s|m|h|d|w|nanoseconds?|microseconds?|milliseconds?|seconds?|sec|minutes?|min|hours?|hr|days?|weeks?|wk)\s*)+$/i;
const MAC = /^(?:[0-9a-fA-F]{2}(?:[:-][0-9a-fA-F]{2}){5,19}|[0-9a-fA-F]{4}(?:\.[0-9a-fA-F]{4}){2,9})$/;

const FORMATS: Record<string, (text: string) => boolean> = {
  bsonobjectid: (text) => text.length === 24 && HEX.test(text),
  uri: (text) =>
    text.length > 0 && (text.startsWith("/") || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(text)) && !/\s/.test(text),
  email: (text) => /^[^\s@<>]+@[^\s@<>]+$/.test(text) || /<[^\s@<>]+@[^\s@<>]+>\s*$/.test(text),
  hostname: (text) =>
    text.length <= 255 &&
    text
      .replace(/\.$/, "")
      .split(".")
      .every((label) => HOSTNAME_LABEL.test(label)),
  ipv4: (text) => isIpv4(text),
  ipv6: (text) => isIpv6(text),
  cidr: (text) => isCidr(text),
  mac: (text) => MAC.test(text),
  uuid: (text) => UUID.test(text),
  uuid3: (text) => UUID3.test(text),
  uuid4: (text) => UUID4.test(text),
  uuid5: (text) => UUID5.test(text),
  isbn: (text) => isIsbn10(text) || isIsbn13(text),
  isbn10: isIsbn10,
  isbn13: isIsbn13,
  creditcard: (text) => /^\d{13,19}$/.test(text.replace(/[ -]/g, "")) && luhn(text.replace(/[ -]/g, "")),
  ssn: (text) => /^\d{3}[- ]?\d{2}[- ]?\d{4}$/.test(text),
  hexcolor: (text) => /^#?(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(text),
  rgbcolor: (text) => /^rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\)$/.test(text),
  byte: (text) => /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text.replace(/\s/g, "")),
  date: isFullDate,
  duration: (text) => DURATION_GO.test(text) || DURATION_WORDS.test(text),
  datetime: isDateTime,
  "date-time": isDateTime,
};

function isDateTime(text: string): boolean {
  const parts = DATE_TIME.exec(text);
  if (!parts || !isFullDate(parts[1]!)) return false;
  const [hour, minute, second] = parts.slice(2).map(Number);
  return hour! <= 23 && minute! <= 59 && second! <= 59;
}

/** `2006-01-02` as Go's time.Parse takes it: the day checked against its month, leap years too. */
function isFullDate(text: string): boolean {
  const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!parts) return false;
  const [year, month, day] = parts.slice(1).map(Number);
  const leap = year! % 4 === 0 && (year! % 100 !== 0 || year! % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month! - 1];
  return days !== undefined && day! >= 1 && day! <= days;
}

function isIpv4(text: string): boolean {
  const octets = text.split(".");
  return octets.length === 4 && octets.every((octet) => /^\d{1,3}$/.test(octet) && Number(octet) <= 255);
}

function isIpv6(text: string): boolean {
  if (!text.includes(":") || /[^0-9a-fA-F:.]/.test(text)) return false;
  const [head, tail, ...more] = text.split("::");
  if (more.length > 0) return false;
  const groups = (part: string | undefined) => (part === undefined || part === "" ? [] : part.split(":"));
  const all = [...groups(head), ...groups(tail)];
  const last = all.at(-1);
  const embedsIpv4 = last !== undefined && last.includes(".");
  if (embedsIpv4 && !isIpv4(last)) return false;
  const hex = embedsIpv4 ? all.slice(0, -1) : all;
  if (!hex.every((group) => /^[0-9a-fA-F]{1,4}$/.test(group))) return false;
  const count = hex.length + (embedsIpv4 ? 2 : 0);
  return tail === undefined ? count === 8 : count < 8;
}

function isCidr(text: string): boolean {
  const slash = text.lastIndexOf("/");
  if (slash < 0) return false;
  const address = text.slice(0, slash);
  const bits = text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bits)) return false;
  if (isIpv4(address)) return Number(bits) <= 32;
  return isIpv6(address) && Number(bits) <= 128;
}

function isIsbn10(text: string): boolean {
  const digits = text.replace(/[ -]/g, "");
  if (!/^\d{9}[\dX]$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += (10 - i) * (digits[i] === "X" ? 10 : Number(digits[i]));
  return sum % 11 === 0;
}

function isIsbn13(text: string): boolean {
  const digits = text.replace(/[ -]/g, "");
  if (!/^\d{13}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 13; i++) sum += (i % 2 === 0 ? 1 : 3) * Number(digits[i]);
  return sum % 10 === 0;
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}
