import { INT64_CASES, measureInt64 } from "./int64-measure";

/** Runs inside workerd: the int64 figures timed in the isolate itself. `?quick` for fewer rounds. */
export default {
  async fetch(request: Request): Promise<Response> {
    const quick = new URL(request.url).searchParams.has("quick");
    return Response.json({ runtime: "workerd", rows: await measureInt64(INT64_CASES, quick ? 5 : 15) });
  },
};
