import { readFileSync } from "node:fs";
import { stringify as stringifyJson } from "lossless-json";
import { parseAllDocuments, stringify } from "yaml";
import { decodeJson } from "../protocol/json";

/** A usage problem (exit 2), as opposed to a conversion or check that failed (exit 1). */
export class UsageError extends Error {
  override name = "UsageError";
}

export interface Output {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** A file's text, or standard input's for `-`. */
export function readInput(file: string | undefined, stdin: () => string): string {
  if (file === undefined) throw new UsageError("-f FILE is required (use -f - for standard input)");
  if (file === "-") return stdin();
  return readTextFile(file);
}

/** A file's text; one that cannot be read is a usage error naming it as `name` (default: its path). */
export function readTextFile(path: string, name = path): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${name}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** Every document of a JSON or (multi-document) YAML text; empty documents are skipped. */
export function parseDocuments(text: string, name: string): unknown[] {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      // The webhook's own reader: integers beyond 2^53 stay exact.
      return [decodeJson(text).value];
    } catch (error) {
      throw new UsageError(`${name}: ${(error as Error).message}`);
    }
  }
  const documents = parseAllDocuments(text, { intAsBigInt: true });
  const values: unknown[] = [];
  for (const [index, document] of (Array.isArray(documents) ? documents : [documents]).entries()) {
    if (document.errors.length > 0)
      throw new UsageError(`${name}: document ${index + 1} is not valid YAML: ${document.errors[0]!.message}`);
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

export function formatDocuments(values: unknown[], format: "yaml" | "json"): string {
  if (format === "json") {
    const value = values.length === 1 ? values[0] : { apiVersion: "v1", kind: "List", items: values };
    // lossless-json prints bigint (int64 beyond 2^53) as the number it is.
    return `${stringifyJson(value, null, 2)}\n`;
  }
  return values.map((value) => stringify(value, { lineWidth: 0 })).join("---\n");
}

/** The `-o` of a command that reports as text or JSON. */
export function reportFormat(values: Record<string, unknown>): "text" | "json" {
  const format = String(values.output ?? "text");
  if (format !== "text" && format !== "json")
    throw new UsageError(`-o must be text or json, got ${JSON.stringify(format)}`);
  return format;
}
