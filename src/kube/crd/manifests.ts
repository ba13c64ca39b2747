import { type Document, parseAllDocuments } from "yaml";
import { decodeJson } from "../../json";
import { aliasProblem } from "./alias-expansion";

/** A manifest that cannot be read: the file's name and what is wrong, in one line. */
export class ManifestError extends Error {
  override name = "ManifestError";
}

/**
 * Characters of YAML read at all: the parser keeps a tree many times the text's size, so a
 * larger text would exhaust memory where JSON (parsed without that tree) does not.
 */
export const YAML_TEXT_LIMIT = 64 * 1024 * 1024;

/** Every document of a JSON or (multi-document) YAML text; empty documents are skipped. */
export function parseManifests(text: string, name: string): unknown[] {
  return manifestDocuments(text, name).filter((value) => value !== null && value !== undefined);
}

/**
 * Every document of a JSON or (multi-document) YAML text, an empty one as null, so that the
 * index of each is the one a message names (`document 2`). The one reader of manifests: objects
 * and CRDs alike, so that a CRD's int64 bound reads the same to every command.
 */
export function manifestDocuments(text: string, name: string): unknown[] {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      // The webhook's own reader: integers beyond 2^53 stay exact.
      return [decodeJson(text).value];
    } catch (error) {
      throw new ManifestError(`${name}: ${(error as Error).message}`);
    }
  }
  return yamlDocuments(text, name).map((document, index) =>
    yamlDocumentValue(document, `${name}: document ${index + 1}`),
  );
}

/**
 * The documents of a YAML text, each free of parse errors, for readers that keep the document
 * itself (its comments) rather than its value. Any problem is a ManifestError of one line.
 */
export function yamlDocuments(text: string, name: string): Document.Parsed[] {
  if (text.length > YAML_TEXT_LIMIT)
    throw new ManifestError(
      `${name}: ${text.length} characters of YAML, over the ${YAML_TEXT_LIMIT} crdshift reads; give it as JSON (kubectl get -o json), or split it`,
    );
  let parsed: Document.Parsed | Document.Parsed[];
  try {
    parsed = parseAllDocuments(text, { intAsBigInt: true });
  } catch (error) {
    throw new ManifestError(`${name}: not valid YAML: ${firstLine((error as Error).message)}`);
  }
  const documents = Array.isArray(parsed) ? parsed : [parsed];
  for (const [index, document] of documents.entries()) {
    const problem = document.errors[0];
    if (problem) throw new ManifestError(`${name}: document ${index + 1} is not valid YAML: ${parseError(problem)}`);
  }
  return documents;
}

/**
 * A YAML document parsed with `intAsBigInt` as the webhook would read it as JSON: integers
 * numbers where a double holds them exactly, bigint beyond ±2^53 (never rounded). Aliases are
 * expanded only within ALIAS_EXPANSION_LIMIT (alias-expansion.ts), which stands in for `yaml`'s
 * count of them; `where` names the document in a ManifestError.
 */
export function yamlDocumentValue(document: Document, where = "document"): unknown {
  let problem: string | undefined;
  try {
    problem = aliasProblem(document);
    if (problem === undefined) return document.toJS({ reviver: asWebhookNumber, maxAliasCount: -1 });
  } catch (error) {
    // The tree may still be deeper than a recursive walk of it can go.
    problem = error instanceof RangeError ? "nested too deeply" : firstLine((error as Error).message);
  }
  throw new ManifestError(`${where}: ${problem}`);
}

/** A parse error's first line: the lines after it quote the text, which may hold anything. */
function parseError(error: { message: string; linePos?: [{ line: number; col: number }, ...unknown[]] }): string {
  const line = firstLine(error.message);
  if (!line.startsWith("Maximum call stack size exceeded")) return line;
  const at = error.linePos?.[0];
  return `nested too deeply${at ? ` (at line ${at.line}, column ${at.col})` : ""}`;
}

function firstLine(text: string): string {
  return text.split("\n", 1)[0]!.trim();
}

function asWebhookNumber(_key: unknown, value: unknown): unknown {
  return typeof value === "bigint" && value >= MIN_SAFE && value <= MAX_SAFE ? Number(value) : value;
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
