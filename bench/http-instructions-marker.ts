import { hostname, uptime } from "node:os";

// Preloaded (`node --import`) into a server counted by http-instructions.ts: each SIGUSR2
// starts or ends a block, marked for callgrind by os.hostname() (zero the counters) and
// os.uptime() (write them out), then said on stderr. Nothing runs per request.
let counting = false;
process.on("SIGUSR2", () => {
  counting = !counting;
  if (counting) hostname();
  else uptime();
  process.stderr.write(counting ? "block started\n" : "block ended\n");
});
