import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { tooLarge } from "./admission";
import type { HttpReply } from "./reply";
import type { Report } from "./report";

/**
 * The size check of a body sent without a length (chunked), in the Hono app: counted as it
 * streams in, by Hono's bodyLimit, which keeps what it read for the review. The refusal if it is
 * over the limit or broke off, else undefined. (The Node server's own review route takes only
 * bodies with a declared length, so this is the one place that counts.)
 */
export function createStreamedSizeCheck(
  limitBytes: number,
  report: Report,
): (c: Context) => Promise<HttpReply | undefined> {
  const refusal = tooLarge(limitBytes);
  // Over the limit, bodyLimit answers with onError's response instead of going on: unused here.
  const guard = bodyLimit({ maxSize: limitBytes, onError: (c) => c.body(null) });
  return async (c) => {
    let within = false;
    try {
      // Reads the whole body, counting it: a broken upload fails here.
      await guard(c, async () => {
        within = true;
      });
    } catch (error) {
      return report.unreadable(error);
    }
    return within ? undefined : report.refuse(refusal);
  };
}
