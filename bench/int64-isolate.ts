import { hasSourceTextAccess, INT64_CASES, measureInt64 } from "./int64-measure";

/** Runs inside workerd: the int64 figures timed in the isolate itself. `?quick` for fewer. */
export default {
  async fetch(request: Request): Promise<Response> {
    const quick = new URL(request.url).searchParams.has("quick");
    const rows = await measureInt64(quick ? INT64_CASES.slice(0, 3) : INT64_CASES, quick ? 5 : 15);
    return Response.json({ runtime: "workerd", sourceTextAccess: hasSourceTextAccess(), rows });
  },
};
