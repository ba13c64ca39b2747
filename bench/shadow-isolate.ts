import { createWorker } from "crdshift/workers";
import type { Registry } from "crdshift";
import { registry } from "../examples";
import { hostile } from "../test/fixtures/hostile-registries";

/**
 * Runs inside workerd for `npm run bench:shadow`: a review with the `x-candidate` header goes to
 * a Worker made for it with that hostile candidate, every review shadowed (a fresh one each
 * time, so the idle share after a shadow holds none back); one without goes to the examples'
 * Worker without a shadow. One isolate serves them all, so a live review waits for whatever
 * shadow work holds it.
 */
const candidates: Record<string, Registry> = {
  same: registry,
  "slow-5ms": hostile.slow(5),
  "allocates-32MB": hostile.allocates(32),
  "floods-2M": hostile.floods(2_000_000),
};
const live = createWorker(registry);
const env = { CRDSHIFT_SHADOW_SAMPLE: "1" };

export default {
  fetch(request: Request, _: unknown, ctx: unknown): Response | Promise<Response> {
    const candidate = candidates[request.headers.get("x-candidate") ?? ""];
    const worker = candidate ? createWorker(registry, { shadow: candidate }) : live;
    return worker.fetch(request, env, ctx);
  },
};
