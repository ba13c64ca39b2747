import type { Config } from "./config";
import { type BodyOutcome, convertBody, type Registry } from "../conversion";
import type { HttpReply } from "./http-reply";
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
  /** Given each answered review's request text and reply, work to do after the reply (the shadow). */
  followUp?: ReviewFollowUp | undefined;
}

/**
 * Work on an answered review once its reply is decided (src/shadow/): it reads the texts, never
 * the reply's objects, and returns what to finish after the reply, or undefined. Never throws.
 */
export type ReviewFollowUp = (body: string, reply: string) => Promise<void> | undefined;

/**
 * An admitted review request, in two calls: when it arrives, before its body is read (the
 * budget starts; a cold start spends the first request's; `platformDeadline` is the platform's
 * own limit for this request, if any), then with the body's text, for the conversion and the
 * report. The reply is synchronous while the review's converters are: no promise per read. A
 * body that could not be read is the report's (`unreadable`).
 */
export type ReviewRoute = (platformDeadline?: number) => (body: string) => HttpReply | Promise<HttpReply>;

/** Built once per app; the Hono app's route and the Node server's own both call it. */
export function createReviewRoute(options: ReviewRouteOptions): ReviewRoute {
  const { registry, config, report, now, startedAt, followUp } = options;
  const { budgetMs } = config;
  let cold = true;
  return (platformDeadline) => {
    const started = now();
    const first = cold;
    cold = false;
    const deadline = reviewDeadline(started, budgetMs, first ? startedAt : undefined, platformDeadline);
    const budget = { deadline, budgetMs: Math.max(0, Math.round(deadline - started)), now };
    return (body) => {
      const answer = (outcome: BodyOutcome): HttpReply => {
        if (!outcome.ok) return report.reject({ reason: outcome.reason, message: outcome.message });
        const reported = report.reviewed(outcome.review, outcome.failure, now() - started, first);
        const after = followUp ? both(reported, followUp(body, outcome.text)) : reported;
        return { status: 200, body: outcome.text, ...(after ? { after } : {}) };
      };
      const outcome = convertBody(registry, body, { limits: config, budget });
      return outcome instanceof Promise ? outcome.then(answer) : answer(outcome);
    };
  };
}

function both(a: Promise<void> | undefined, b: Promise<void> | undefined): Promise<void> | undefined {
  return a && b ? Promise.all([a, b]).then(() => {}) : (a ?? b);
}
