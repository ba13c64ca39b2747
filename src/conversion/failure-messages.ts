import { clip, quote, REASON_LIMIT, isJsonObject, type JsonObject, jsonTypeName } from "../json";
import { parseApiVersion } from "../kube";
import type { Route, Step } from "./routes";
import { describeObject } from "./describe";
import { errorText, isError, printed, textField } from "./thrown-value";

/**
 * The messages of failed conversions, for the person reading `kubectl` output: which object,
 * which versions, what was wrong. Built only on failure.
 */

/**
 * `object 3 (default/a, uid …) CronTab example.com/v1 -> example.com/v2: <problem>`, naming as much
 * of the conversion as the object says: an object without a valid apiVersion and kind is named
 * by its index and metadata alone.
 */
export function failureMessage(index: number, object: JsonObject, desiredAPIVersion: string, problem: string): string {
  const who = describeObject(index, object);
  const conversion = conversionText(object, desiredAPIVersion, problem);
  return conversion === undefined ? `${who}: ${problem}` : `${who} ${conversion}`;
}

/**
 * `CronTab example.com/v1 -> example.com/v2: <problem>`: a failure without the object's
 * name, for a report that names the object its own way; undefined when the object has no valid
 * apiVersion and kind to say.
 */
export function conversionText(object: JsonObject, desiredAPIVersion: string, problem: string): string | undefined {
  const { apiVersion, kind } = object;
  const named =
    typeof apiVersion === "string" &&
    parseApiVersion(apiVersion) !== undefined &&
    typeof kind === "string" &&
    kind.length > 0;
  return named ? `${clip(kind)} ${clip(apiVersion)} -> ${clip(desiredAPIVersion)}: ${problem}` : undefined;
}

export function notAnObjectMessage(index: number, value: unknown): string {
  return `object ${index} is not a JSON object but ${jsonTypeName(value)}`;
}

export function budgetMessage(
  index: number,
  objects: readonly unknown[],
  desired: string,
  budgetMs: number | undefined,
): string {
  const object = objects[index];
  const what = isJsonObject(object)
    ? ` (${clip(String(object.kind))} ${clip(String(object.apiVersion))} -> ${clip(desired)})`
    : "";
  const limit = budgetMs !== undefined ? `conversion budget of ${budgetMs} ms` : "conversion deadline";
  return `${limit} exceeded after ${index} of ${objects.length} objects${what}`;
}

/** What a converter threw or rejected with, for a message: its message, or what it was. */
export function converterErrorText(error: unknown): string {
  if (isError(error)) {
    const message = textField(error, "message");
    if (message) return clip(message, REASON_LIMIT);
    // No message to show: the Error's name, and whether its message could not even be read.
    const what = message === "" ? (textField(error, "name") ?? "Error") : errorText(error);
    return clip(`the converter threw ${what}`, REASON_LIMIT);
  }
  if (typeof error === "string" && error) return clip(error, REASON_LIMIT);
  return clip(`the converter threw ${printed(error)}`, REASON_LIMIT);
}

/** An exception from crdshift's own code: said to be ours, so nobody hunts for it in their converter. */
export function internalErrorText(error: unknown): string {
  return `internal error occurred during conversion (a bug in crdshift, not in this object or its converters; please report it): ${thrownText(error)}`;
}

/** A thrown value as a message shows it: `TypeError: …`, clipped; never throws, whatever it is. */
export function thrownText(error: unknown): string {
  return clip(errorText(error), REASON_LIMIT);
}

/** Where an Error was thrown, its stack's first frame (`fn (file:line:col)`), for a person to find it; undefined if none. */
export function firstStackFrame(error: unknown): string | undefined {
  if (!isError(error)) return undefined;
  return textField(error, "stack")
    ?.split("\n")
    .find((line) => /^\s+at /.test(line))
    ?.trim()
    .replace(/^at /, "");
}

/** Where in a chain of more than one converter a failure happened: ` (in step v1 -> v2)`. */
export function inStep(steps: Route, step: Step): string {
  return steps.length > 1 ? ` (in step ${step.from} -> ${step.to})` : "";
}

/** A bad apiVersion as a message shows it: quoted, clipped, or said to be missing. */
export function shownApiVersion(value: unknown): string {
  if (value === undefined) return "is missing";
  return typeof value === "string" ? quote(value) : clip(JSON.stringify(value));
}
