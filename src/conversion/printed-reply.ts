import { encodeJson, type JsonObject } from "../json";
import { type ConversionReview, successReply } from "../kube";

/**
 * A success reply printed one converted object at a time, as the batch hands them over, straight
 * into UTF-8 bytes: a large review then holds each object's bytes rather than its tree until the
 * end (the converter's output, crdshift's copy of it and its text die young), and never the
 * reply as one string, nor the copies joining and writing one would make (docs/performance.md:
 * memory). The bytes are those of `encodeJson(successReply(review, objects))` in UTF-8.
 */
export interface PrintedReply {
  /** Prints the next converted object. Never throws: an object that cannot be printed is remembered. */
  take(object: JsonObject, index: number): void;
  /** The reply's bytes, or the first object that could not be printed and why. */
  finish(): { bytes: ReplyBytes } | { index: number; error: unknown };
}

/** A reply's UTF-8 bytes in pieces, written one after another. */
export interface ReplyBytes {
  readonly chunks: readonly Uint8Array[];
  readonly byteLength: number;
}

/** The pieces the bytes are written into: large enough that their count stays small, small enough to waste little. */
const CHUNK_BYTES = 1024 * 1024;
const COMMA = 0x2c;

export function printReply(
  review: ConversionReview,
  lossless: boolean,
  deep: boolean,
  chunkBytes = CHUNK_BYTES,
): PrintedReply {
  // The envelope as the whole reply prints it, `convertedObjects` its last member: `…"convertedObjects":[]}}`.
  const shell = encodeJson(successReply(review, []));
  const close = shell.lastIndexOf("]");
  const encoder = new TextEncoder();
  let chunks: Uint8Array[] = [];
  let chunk = new Uint8Array(chunkBytes);
  let used = 0;
  let byteLength = 0;
  const next = () => {
    chunks.push(chunk.subarray(0, used));
    byteLength += used;
    chunk = new Uint8Array(chunkBytes);
    used = 0;
  };
  const write = (text: string) => {
    // encodeInto writes whole characters only, and says how many it read: the rest goes on in a fresh chunk.
    for (let rest = text; ;) {
      const { read, written } = encoder.encodeInto(rest, chunk.subarray(used));
      used += written;
      if (read === rest.length) return;
      rest = rest.slice(read);
      next();
    }
  };
  write(shell.slice(0, close));
  let unprintable: { index: number; error: unknown } | undefined;
  let first = true;
  return {
    take(object, index) {
      if (unprintable) return;
      let text: string;
      try {
        text = encodeJson(object, lossless, deep);
      } catch (error) {
        unprintable = { index, error };
        chunks = [];
        return;
      }
      if (!first) {
        if (used === chunk.length) next();
        chunk[used++] = COMMA;
      }
      first = false;
      write(text);
    },
    finish() {
      if (unprintable) return unprintable;
      write(shell.slice(close));
      chunks.push(chunk.subarray(0, used));
      const bytes = { chunks, byteLength: byteLength + used };
      chunks = [];
      return { bytes };
    },
  };
}

/** A reply's bytes as text, for whoever needs the string (a reply size limit, the shadow). */
export function replyText({ chunks }: ReplyBytes): string {
  if (chunks.length === 1) return new TextDecoder().decode(chunks[0]);
  const decoder = new TextDecoder();
  let text = "";
  for (const chunk of chunks) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}
