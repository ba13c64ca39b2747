import { readFileSync } from "node:fs";
import type { Readable } from "node:stream";
import { Miniflare } from "miniflare";
import { inRepo } from "./paths";

// The deployable Worker (build/worker/worker.js, what `npm run build:worker` writes) in workerd,
// on 127.0.0.1:PORT, with wrangler.toml's compatibility date and the bindings in this process's
// environment: a server of its own, so that a load generator does not share its process with
// miniflare's. workerd answers the socket itself; this process only keeps it running.
const compatibilityDate = /^compatibility_date = "([^"]+)"/m.exec(readFileSync(inRepo("wrangler.toml"), "utf8"))![1]!;
const bindings = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith("CRDSHIFT_")));
const mf = new Miniflare({
  modules: true,
  scriptPath: inRepo("build/worker/worker.js"),
  // As wrangler.toml's rules: every .js file is an ES module (the SDK chunks load lazily).
  modulesRules: [{ type: "ESModule", include: ["**/*.js"] }],
  compatibilityDate,
  bindings: bindings as Record<string, string>,
  host: "127.0.0.1",
  port: Number(process.env.PORT),
  // A Failure's log line would otherwise be copied to this process's stdout, which is ignored.
  handleRuntimeStdio: (stdout: Readable, stderr: Readable) => (stdout.resume(), stderr.resume()),
});
await mf.ready;
process.on("SIGTERM", () => void mf.dispose().then(() => process.exit(0)));
