import type { Config } from "./config";
import { BUSY } from "./admission";
import { convertBody, type Registry } from "../conversion";
import type { HttpReply } from "./http-reply";
import type { Lease } from "./bytes-in-flight";
import type { Report } from "./report";
import { reviewDeadline } from "./review-deadline";
import type { TraceFields } from "./trace-context";

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
type ReviewFollowUp = (body: string, reply: string, trace: TraceFields | undefined) => Promise<void> | undefined;

/** When an admitted review arrived, before its body was read: its budget runs from then. */
interface Arrival {
  /** `now()` at its arrival. */
  at: number;
  /** The platform's own limit for this request, if any (see AppOptions.platformDeadline). */
  platformDeadline: number | undefined;
}

/**
 * The reply to an admitted review's body: its conversion and its report. The first review an
 * instance answers spends what its cold start took of the budget. A body that could not be read
 * is the report's (`unreadable`). `room` counts the memory the review turns out to hold against
 * CRDSHIFT_MAX_BYTES_IN_FLIGHT (its Lease): no room now, and the review waits for it if no other
 * does (then is read again from its text), else it is answered 429. `trace` goes into its log
 * lines, and the shadow's.
 */
export type ReviewRoute = (body: string, arrival: Arrival, room: Room, trace?: TraceFields) => Promise<HttpReply>;

/** What the route asks of a request's Lease (bytes-in-flight.ts). */
type Room = Pick<Lease, "resize" | "waitForRefused">;

/** Built once per app, for its review route. */
export function createReviewRoute(options: ReviewRouteOptions): ReviewRoute {
  const { registry, config, report, now, startedAt, followUp } = options;
  const { budgetMs } = config;
  let cold = true;
  return async (body, { at, platformDeadline }, room, trace) => {
    const first = cold;
    cold = false;
    const deadline = reviewDeadline(at, budgetMs, first ? startedAt : undefined, platformDeadline);
    const budget = { deadline, budgetMs: Math.max(0, Math.round(deadline - at)), now };
    const options = { limits: config, budget, hold: room.resize };
    let outcome = await convertBody(registry, body, options);
    // Refused for no room, before its tree was built: once the room comes, from the scan again.
    if (!outcome.ok && outcome.reason === "busy" && (await room.waitForRefused()))
      outcome = await convertBody(registry, body, options);
    if (!outcome.ok)
      return report.reject(outcome.reason === "busy" ? BUSY : { reason: outcome.reason, message: outcome.message });
    const reported = report.reviewed(outcome.review, outcome.failure, now() - at, first, trace);
    const after = followUp ? both(reported, followUp(body, outcome.text, trace)) : reported;
    return { status: 200, body: outcome.bytes ?? outcome.text, ...(after ? { after } : {}) };
  };
}

function both(a: Promise<void> | undefined, b: Promise<void> | undefined): Promise<void> | undefined {
  return a && b ? Promise.all([a, b]).then(() => {}) : (a ?? b);
}
