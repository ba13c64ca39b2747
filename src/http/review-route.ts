import type { Config } from "../config";
import { convertBody } from "../engine/convert-body";
import type { Registry } from "../registry";
import type { HttpReply } from "./reply";
import type { Report } from "./report";
import { reviewDeadline } from "./review-deadline";

export interface ReviewRouteOptions {
  registry: Registry;
  config: Config;
  report: Report;
  /** Milliseconds (see AppOptions.now). */
  now: () => number;
  /** When this instance started (see AppOptions.startedAt). */
  startedAt: number | undefined;
}

/**
 * An admitted review request, from its body to its reply: the budget (a cold start spends the
 * first request's), the body read, the conversion, the report. `readBody` is the platform's way
 * to the body's text (it rejects when the upload breaks off); `platformDeadline` its own limit
 * for this request, if any.
 */
export type ReviewRoute = (
  readBody: () => Promise<string>,
  platformDeadline?: () => number | undefined,
) => Promise<HttpReply>;

/** Built once per app; the Hono app's route and the Node server's own both call it. */
export function createReviewRoute({ registry, config, report, now, startedAt }: ReviewRouteOptions): ReviewRoute {
  const { budgetMs } = config;
  let cold = true;
  return async (readBody, platformDeadline) => {
    const started = now();
    const first = cold;
    cold = false;
    const deadline = reviewDeadline(started, budgetMs, first ? startedAt : undefined, platformDeadline?.());
    let body: string;
    try {
      body = await readBody();
    } catch (error) {
      return report.unreadable(error);
    }
    const outcome = await convertBody(registry, body, {
      limits: config,
      budget: { deadline, budgetMs: Math.max(0, Math.round(deadline - started)), now },
    });
    if (!outcome.ok) return report.refuse({ reason: outcome.reason, status: 400, message: outcome.message });
    const after = report.reviewed(outcome.review, outcome.failure, now() - started, first);
    return { status: 200, body: outcome.text, ...(after ? { after } : {}) };
  };
}
