import { encodeJson, type JsonObject } from "../json";
import { type ConversionReview, successReply } from "../kube";

/**
 * A success reply printed one converted object at a time, as the batch hands them over: a large
 * review then holds each object's text rather than its tree until the end (the converter's
 * output and crdshift's copy of it die young), which is most of what a review holds
 * (docs/performance.md: memory). The text is the one `encodeJson(successReply(review, objects))`
 * prints.
 */
export interface PrintedReply {
  /** Prints the next converted object. Never throws: an object that cannot be printed is remembered. */
  take(object: JsonObject, index: number): void;
  /** UTF-16 units of the objects printed so far. */
  readonly length: number;
  /** The reply's text, or the first object that could not be printed and why. */
  finish(): { text: string } | { index: number; error: unknown };
}

export function printReply(review: ConversionReview, lossless: boolean, deep: boolean): PrintedReply {
  // The envelope as the whole reply prints it, `convertedObjects` its last member: `…"convertedObjects":[]}}`.
  const shell = encodeJson(successReply(review, []));
  const close = shell.lastIndexOf("]");
  let pieces: string[] = [];
  let length = 0;
  let unprintable: { index: number; error: unknown } | undefined;
  return {
    take(object, index) {
      if (unprintable) return;
      try {
        const text = encodeJson(object, lossless, deep);
        pieces.push(text);
        length += text.length + 1;
      } catch (error) {
        unprintable = { index, error };
        pieces = [];
      }
    },
    get length() {
      return length;
    },
    finish() {
      if (unprintable) return unprintable;
      const text = `${shell.slice(0, close)}${pieces.join(",")}${shell.slice(close)}`;
      pieces = [];
      return { text };
    },
  };
}
