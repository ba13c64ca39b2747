import { readFileSync } from "node:fs";
import { stringify as stringifyJson } from "lossless-json";
import { stringify } from "yaml";
import { ManifestError, parseManifests } from "../kube/crd";

/** A usage problem (exit 2), as opposed to a conversion or check that failed (exit 1). */
export class UsageError extends Error {
  override name = "UsageError";
}

/** A flag's value as a positive whole number, or a usage error naming the flag. */
export function positive(text: string, flag: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n <= 0) throw new UsageError(`${flag} must be a positive whole number`);
  return n;
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

/** Every document of a JSON or (multi-document) YAML text; one that cannot be read is a usage error. */
export function parseDocuments(text: string, name: string): unknown[] {
  try {
    return parseManifests(text, name);
  } catch (error) {
    throw error instanceof ManifestError ? new UsageError(error.message) : error;
  }
}

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
