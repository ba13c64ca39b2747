/**
 * A value a converter threw (or rejected with, or a getter of its result threw), read without
 * trusting it. JavaScript lets anything be thrown: an object without a prototype, one whose
 * toString throws, a proxy whose every trap throws, an Error whose `message` is a getter that
 * throws. `instanceof` runs a proxy's trap and `String()` runs the value's own code, so each is
 * asked inside a try: what cannot be read is said to be so, and nothing here throws.
 */

/** Whether the value is an Error; false for one that will not say (a proxy whose trap throws). */
export function isError(value: unknown): value is Error {
  if (typeof value !== "object" || value === null) return false;
  try {
    return value instanceof Error;
  } catch {
    return false;
  }
}

/** Whether the value is an instance of `type`, false for one that will not say. */
export function isInstance(value: unknown, type: abstract new (...args: never[]) => unknown): boolean {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return false;
  try {
    return value instanceof type;
  } catch {
    return false;
  }
}

/** A field of a thrown object that is a string (an Error's name, message or stack), or undefined. */
export function textField(value: unknown, field: "name" | "message" | "stack"): string | undefined {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return undefined;
  try {
    const text: unknown = (value as Record<string, unknown>)[field];
    return typeof text === "string" ? text : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The value as text: a primitive as `String` writes it, an object by its own toString, and one
 * whose toString is missing, throws or returns no string by its tag (`[object Object]`).
 */
export function printed(value: unknown): string {
  if (typeof value === "string") return value;
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return String(value);
  try {
    const text: unknown = String(value);
    if (typeof text === "string") return text;
  } catch {
    // No toString of its own to use (Object.create(null)), or one that throws: its tag below.
  }
  let tag = "";
  try {
    tag = ` (${Object.prototype.toString.call(value)})`;
  } catch {
    // A revoked proxy, or a Symbol.toStringTag getter that throws: no tag either.
  }
  return `an object that cannot be converted to a string${tag}`;
}

/** `TypeError: message` for an Error, the printed value for anything else. */
export function errorText(value: unknown): string {
  if (!isError(value)) return printed(value);
  const name = textField(value, "name") ?? "Error";
  const message = textField(value, "message");
  return message === undefined ? `${name} (without a readable message)` : `${name}: ${message}`;
}

/** An Error's message, or what `errorText` says of anything else (an Error without a readable one included). */
export function messageOf(value: unknown): string {
  return (isError(value) ? textField(value, "message") : undefined) ?? errorText(value);
}
