// Loads a Lambda bundle as the Lambda Node.js runtime does (a plain `node` process importing
// index.mjs once) and invokes its handler for each event read from stdin, one JSON document
// per line: {"event": …, "remainingMs": …}. Writes one JSON result per line to fd 3: as on
// Lambda, results travel apart from stdout and stderr, which are the function's log.
import { createWriteStream } from "node:fs";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { format } from "node:util";

// The runtime's console writes to the log with a prefix; raw stdout writes (EMF) stay bare.
for (const level of ["log", "info", "warn", "error"])
  console[level] = (...args) => process.stderr.write(`${format(...args)}\n`);
const results = createWriteStream(null, { fd: 3 });

const { handler } = await import(pathToFileURL(process.argv[2]).href);
let invocation = 0;
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  const { event, remainingMs = 25_000 } = JSON.parse(line);
  const deadline = Date.now() + remainingMs;
  const context = {
    awsRequestId: `req-${++invocation}`,
    functionName: "crdshift",
    functionVersion: "$LATEST",
    memoryLimitInMB: "512",
    invokedFunctionArn: "arn:aws:lambda:us-east-1:123456789012:function:crdshift",
    logGroupName: "/aws/lambda/crdshift",
    logStreamName: "2026/11/21/[$LATEST]0123456789abcdef",
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => deadline - Date.now(),
  };
  const result = await handler(event, context);
  results.write(`${JSON.stringify(result)}\n`);
}
