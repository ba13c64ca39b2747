import { createHash } from "node:crypto";
import { hostname, uptime } from "node:os";
import { createApp, createJsonLogger, readConfig, silentLogger } from "crdshift";
import { registry } from "../examples";
import { convertBody, floor } from "./convert-body";
import type { Mode } from "./instruction-modes";
import { reviewBody } from "./objects";

/**
 * Run under callgrind by instructions.ts: `warm` single-object reviews the `mode` way, then
 * `blocks` blocks of `count` more, each between two calls callgrind is told to watch:
 * os.hostname() zeroes its counters (--zero-before), os.uptime() writes them out (--dump-before).
 * `node instructions-child.mjs <mode> <warm> <count> <blocks>`.
 */
const TOKEN = "bench-token-0123456789abcdef";
const body = reviewBody(1);
const appWith = (log: typeof silentLogger) =>
  createApp({
    registry,
    config: readConfig({ CRDSHIFT_TOKEN: TOKEN }),
    // As `serve()` writes its lines: straight to stdout (here /dev/null), one write per line.
    log,
    tokenHash: (text) => createHash("sha256").update(text).digest("hex"),
  });
const logged = appWith(createJsonLogger((line) => process.stdout.write(`${line}\n`)));
const quiet = appWith(silentLogger);

async function viaApp(app: typeof logged): Promise<void> {
  const response = await app.fetch(
    new Request(`http://127.0.0.1/convert/${TOKEN}`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) },
      body,
    }),
  );
  if (response.status !== 200) throw new Error(`the app answered ${response.status}: ${await response.text()}`);
  await response.text();
}

const run: Record<Mode, () => unknown> = {
  floor: () => floor(body),
  engine: () => convertBody(body),
  app: () => viaApp(logged),
  "app-no-log": () => viaApp(quiet),
};

const [mode, warm, count, blocks = "1"] = process.argv.slice(2) as [Mode, string, string, string?];
for (let i = 0; i < Number(warm); i++) await run[mode]();
for (let block = 0; block < Number(blocks); block++) {
  hostname(); // callgrind zeroes its counters here (--zero-before)
  for (let i = 0; i < Number(count); i++) await run[mode]();
  uptime(); // and writes them out here (--dump-before)
}
