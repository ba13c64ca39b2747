import { conversionText, convertObjects, describeObject, type Registry } from "../conversion";
import { isJsonObject } from "../json";
import { parseApiVersion, failureReply, successReply, parseReview } from "../kube";
import { type Output, UsageError } from "./io";
import { terminalText } from "./terminal-text";

export interface ConvertResult {
  documents: unknown[];
  /** One line per object that failed; any makes the command fail with nothing written. */
  errors: string[];
}

/**
 * Converts every object of every document to `to`, like `kubectl convert` for custom resources:
 * plain objects, `List`s (their items), and ConversionReviews (answered as the webhook would).
 * Objects of kinds the registry does not serve, or of another group, pass through unchanged,
 * with a note on stderr: reported, never dropped.
 */
export async function convertDocuments(
  registry: Registry,
  documents: unknown[],
  to: string,
  name: string,
  io: Output,
): Promise<ConvertResult> {
  const target = parseApiVersion(to);
  if (!target?.group)
    throw new UsageError(`--to must be GROUP/VERSION, like example.com/v1; got ${JSON.stringify(to)}`);
  const errors: string[] = [];
  let position = 0;

  const one = async (object: unknown): Promise<unknown> => {
    const at = `${name}: ${describeObject(position++, object).replace(/^object/, "document")}`;
    const text = isJsonObject(object) && typeof object.apiVersion === "string" ? object.apiVersion : undefined;
    const kind = isJsonObject(object) && typeof object.kind === "string" ? object.kind : undefined;
    if (!text || !kind) {
      io.err(`crdshift: ${terminalText(at)}: no apiVersion and kind; passed through unchanged\n`);
      return object;
    }
    // Core kinds (apiVersion "v1") have no group.
    const group = parseApiVersion(text)?.group ?? "";
    if (group !== target.group || !registry.lookup(group, kind)) {
      const why = group !== target.group ? `not in group ${target.group}` : "not a kind this registry serves";
      io.err(`crdshift: ${terminalText(`${at} ${kind} ${text}`)}: ${why}; passed through unchanged\n`);
      return object;
    }
    const result = await convertObjects(registry, to, [object]);
    if (result.ok) return result.objects[0];
    // Named by its document, not by its place in a one-object batch.
    const what =
      result.problem !== undefined && isJsonObject(object) ? conversionText(object, to, result.problem) : undefined;
    errors.push(`${at}: ${what ?? result.problem ?? result.message}`);
    return object;
  };

  const converted: unknown[] = [];
  for (const document of documents) {
    if (isJsonObject(document) && document.kind === "ConversionReview") {
      const parsed = parseReview(document);
      if (!parsed.ok) throw new UsageError(`${name}: ${parsed.message}`);
      // A review answers with its own desiredAPIVersion, exactly as the webhook would.
      const { review } = parsed;
      const result = await convertObjects(registry, review.request.desiredAPIVersion, review.request.objects);
      if (!result.ok) errors.push(`${name}: ${result.message}`);
      converted.push(result.ok ? successReply(review, result.objects) : failureReply(review, result.message));
      continue;
    }
    if (
      isJsonObject(document) &&
      Array.isArray(document.items) &&
      typeof document.kind === "string" &&
      document.kind.endsWith("List")
    ) {
      const items = [];
      for (const item of document.items) items.push(await one(item));
      converted.push({ ...document, items });
      continue;
    }
    converted.push(await one(document));
  }
  return { documents: converted, errors };
}
