import type { Context } from "hono";
import type { TraceFields } from "../../server";

// A Ray ID as Cloudflare's edge writes it: 16 hex digits, then the data centre's code.
const RAY_ID = /^[0-9a-f]{16}(?:-[A-Z]{3,4})?$/;

/**
 * `cfRay`: the Ray ID Cloudflare's edge gave this request (it overwrites any `CF-Ray` a client
 * sends), by which Cloudflare's traces and logs find it. Checked all the same before it is logged.
 */
export function workersTrace(c: Context): TraceFields | undefined {
  const ray = c.req.header("cf-ray");
  return ray !== undefined && RAY_ID.test(ray) ? { cfRay: ray } : undefined;
}
