import { createWorker } from "crdshift/workers";
import { registry } from "../examples";
import { hostile } from "../test/fixtures/hostile-registries";

/**
 * Runs inside workerd for `npm run bench:shadow`: the examples' Worker, without a shadow or with
 * the hostile candidate the `x-candidate` header names, every review shadowed. One isolate
 * serves them all, so a request waits for whatever shadow work holds it, as a live one would.
 */
const workers: Record<string, ReturnType<typeof createWorker>> = {
  none: createWorker(registry),
  same: createWorker(registry, { shadow: registry }),
  "slow-5ms": createWorker(registry, { shadow: hostile.slow(5) }),
  "allocates-32MB": createWorker(registry, { shadow: hostile.allocates(32) }),
  "floods-2M": createWorker(registry, { shadow: hostile.floods(2_000_000) }),
};
const env = { CRDSHIFT_SHADOW_SAMPLE: "1" };

export default {
  fetch(request: Request, _: unknown, ctx: unknown): Response | Promise<Response> {
    const worker = workers[request.headers.get("x-candidate") ?? "none"]!;
    return worker.fetch(request, env, ctx);
  },
};
