import type { ReplyBytes } from "../conversion";

/** A reply, which the Hono app turns into a Response. Every body crdshift answers with is JSON. */
export interface HttpReply {
  status: number;
  /** JSON: text, or a large review's reply printed as UTF-8 bytes (conversion/printed-reply.ts). */
  body: string | ReplyBytes;
  /** Headers besides `Content-Type: application/json` (which every reply has). */
  headers?: Readonly<Record<string, string>>;
  /**
   * Work to finish after the reply without delaying it (metrics to ship), or undefined. Never
   * rejects. Workers hand it to `waitUntil`; elsewhere it simply runs on.
   */
  after?: Promise<void>;
}

export const JSON_CONTENT_TYPE = "application/json";

/** A reply whose body is text: every one but a large review's. */
export type TextReply = HttpReply & { body: string };
