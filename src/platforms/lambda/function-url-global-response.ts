import { LightResponse } from "./function-url-light-response";

/*
 * This file replaces `globalThis.Response` for the whole process: every `new Response()` after
 * the call, in crdshift, Hono and the user's own code alike, builds a LightResponse. Only the
 * Lambda entry calls it, because a Lambda process is the function's alone and a cold start that
 * loads undici is paid by the apiserver's request (docs/performance.md: Lambda cold start).
 */

let installed = false;

/** Makes the global `Response` the light one for this process; calling it again does nothing. */
export function installLightResponse(): void {
  if (installed) return;
  installed = true;
  // Deleted first: defining over Node's lazy global would load undici to read its old value.
  delete (globalThis as { Response?: unknown }).Response;
  Object.defineProperty(globalThis, "Response", {
    value: LightResponse,
    writable: true,
    configurable: true,
    enumerable: false,
  });
}
