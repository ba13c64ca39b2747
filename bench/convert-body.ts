import { registry } from "../examples";
import { DEFAULTS } from "../src/server/config";
import { convertBody as webhookBody } from "../src/conversion/convert-review";

/**
 * What the webhook does to a request body, without HTTP, with every safety on: the same
 * function the app calls (depth and size scan, envelope, limits, conversion, guards, encoding).
 */
export async function convertBody(body: string): Promise<string> {
  const outcome = await webhookBody(registry, body, {
    limits: DEFAULTS,
    budget: { deadline: Date.now() + 25_000, budgetMs: 25_000 },
  });
  if (!outcome.ok) throw new Error(outcome.message);
  return sendable(outcome.text);
}

/** The floor: the least any JSON webhook must do with the same body. */
export function floor(body: string): string {
  return sendable(JSON.stringify(JSON.parse(body)));
}

/**
 * The reply as the wire needs it: one flat string. JSON.stringify returns a tree of pieces,
 * which V8 joins on the first read (writing it to a socket does); the engine reads its reply
 * (the NaN check), so both sides pay the join here, and the ratio compares the same work.
 */
function sendable(text: string): string {
  text.charCodeAt(0);
  return text;
}
