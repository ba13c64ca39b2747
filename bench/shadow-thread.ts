import { parentPort } from "node:worker_threads";
import { registry } from "../examples";
import { readConfig } from "../src/server/config";
import { convertBody } from "../src/conversion/convert-review";

// `npm run bench:shadow`'s worker thread: the examples' registry and the engine loaded in a
// thread of their own, converting each request text it is sent, as a shadow candidate moved off
// the event loop would. What it costs to start and to talk to is part four of bench/shadow.ts.
const limits = readConfig({});
parentPort!.on("message", (body: string) => {
  void convertBody(registry, body, { limits }).then((outcome) =>
    parentPort!.postMessage(outcome.ok ? outcome.text : outcome.message),
  );
});
parentPort!.postMessage("ready");
