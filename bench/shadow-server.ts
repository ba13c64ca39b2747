import { serve } from "crdshift/node";
import { registry } from "../examples";
import { hostile } from "../test/fixtures/hostile-registries";

// `npm run bench:shadow`'s server: crdshift/node's serve() with the candidate BENCH_CANDIDATE
// names (none: no shadow), on PORT, CRDSHIFT_* from the environment. Log lines go to stdout,
// which the bench discards.
const candidates = {
  same: () => registry,
  throws: hostile.throws,
  "never-settles": hostile.neverSettles,
  "slow-5ms": () => hostile.slow(5),
  "allocates-32MB": () => hostile.allocates(32),
  "floods-2M": () => hostile.floods(2_000_000),
};
const name = process.env.BENCH_CANDIDATE as keyof typeof candidates | undefined;
const server = serve(registry, {
  port: Number(process.env.PORT),
  banner: false,
  ...(name ? { shadow: candidates[name]() } : {}),
});
void server.listening.then(() => process.send?.("listening"));
