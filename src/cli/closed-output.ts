/**
 * Ends the process quietly when its reader goes away (`crdshift convert … | head -1`): a write
 * to the closed pipe fails with EPIPE as an `error` event, which unhandled is a stack trace. The
 * reader has what it wanted, so the exit is 0; any other stream error keeps Node's report.
 */
export function exitQuietlyOnClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    if (stream.listeners("error").includes(onError)) continue;
    stream.on("error", onError);
  }
}

function onError(error: NodeJS.ErrnoException): void {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
}
