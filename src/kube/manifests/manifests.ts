import { parseAllDocuments } from "yaml";
import { decodeJson } from "../../json";

/** A manifest that cannot be read: the file's name and what is wrong, in one line. */
export class ManifestError extends Error {
  override name = "ManifestError";
}

/** Every document of a JSON or (multi-document) YAML text; empty documents are skipped. */
export function parseManifests(text: string, name: string): unknown[] {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      // The webhook's own reader: integers beyond 2^53 stay exact.
      return [decodeJson(text).value];
    } catch (error) {
      throw new ManifestError(`${name}: ${(error as Error).message}`);
    }
  }
  const documents = parseAllDocuments(text, { intAsBigInt: true });
  const values: unknown[] = [];
  for (const [index, document] of (Array.isArray(documents) ? documents : [documents]).entries()) {
    if (document.errors.length > 0)
      throw new ManifestError(`${name}: document ${index + 1} is not valid YAML: ${document.errors[0]!.message}`);
    const value = document.toJS({ reviver: asWebhookNumber });
    if (value !== null && value !== undefined) values.push(value);
  }
  return values;
}

/**
 * YAML integers are read exactly (as bigint), then made what the webhook's JSON reader makes
 * them: numbers where a double holds them exactly, bigint beyond ±2^53.
 */
function asWebhookNumber(_key: unknown, value: unknown): unknown {
  return typeof value === "bigint" && value >= MIN_SAFE && value <= MAX_SAFE ? Number(value) : value;
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
