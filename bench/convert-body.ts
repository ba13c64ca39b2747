import { registry } from "../examples";
import { convertObjects } from "../src/engine";
import { decodeJson, encodeJson, failureReply, parseReview, successReply } from "../src/protocol";

/** What the webhook does to a request body, without HTTP: body in, reply body out. */
export async function convertBody(body: string): Promise<string> {
  const decoded = decodeJson(body);
  const parsed = parseReview(decoded.value);
  if (!parsed.ok) throw new Error(parsed.message);
  const { review } = parsed;
  const result = await convertObjects(registry, review.request.desiredAPIVersion, review.request.objects, {
    deadline: Date.now() + 25_000,
    budgetMs: 25_000,
  });
  if (!result.ok) return encodeJson(failureReply(review, result.message));
  return encodeJson(successReply(review, result.objects), decoded.lossless);
}

/** The floor: the least any JSON webhook must do with the same body. */
export function floor(body: string): string {
  return JSON.stringify(JSON.parse(body));
}
