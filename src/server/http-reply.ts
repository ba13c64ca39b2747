/**
 * A reply as every platform writes it: the Hono app turns it into a Response, the Node server's
 * review route writes it to the socket itself. Every body crdshift answers with is JSON.
 */
export interface HttpReply {
  status: number;
  /** JSON text. */
  body: string;
  /** Headers besides `Content-Type: application/json` (which every reply has). */
  headers?: Readonly<Record<string, string>>;
  /**
   * Work to finish after the reply without delaying it (metrics to ship), or undefined. Never
   * rejects. Workers hand it to `waitUntil`; elsewhere it simply runs on.
   */
  after?: Promise<void>;
}

export const JSON_CONTENT_TYPE = "application/json";
