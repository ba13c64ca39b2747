import type { Context } from "hono";
import type { TraceFields } from "../../server";

// An X-Ray trace header's Root (`Root=1-5759e988-bd862e3fe1be46a994272793;Parent=…;Sampled=1`),
// wherever it stands among the header's fields; anything else in the header is not kept.
const ROOT = /(?:^|;)\s*Root=(1-[0-9a-f]{8}-[0-9a-f]{24})\s*(?:;|$)/;

/** `xrayTraceId` from an X-Ray trace header, or undefined when it has no valid Root. */
export function xrayTraceFields(header: string | undefined): TraceFields | undefined {
  const root = header === undefined ? undefined : ROOT.exec(header)?.[1];
  return root === undefined ? undefined : { xrayTraceId: root };
}

/**
 * The invocation's X-Ray trace id, which the function's own segments and the runtime's log
 * records carry: `_X_AMZN_TRACE_ID`, set by the runtime for each invocation, else the header the
 * function URL put in the event.
 */
export function lambdaTrace(c: Context): TraceFields | undefined {
  return xrayTraceFields(process.env._X_AMZN_TRACE_ID) ?? xrayTraceFields(c.req.header("x-amzn-trace-id"));
}
