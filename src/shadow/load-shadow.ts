import type { Shadow, ShadowOptions } from "./shadow";

/**
 * `createShadow`, loaded on the first review it is given: the comparison (the apiserver's reply
 * checks, the difference walk) is code a webhook without a candidate never needs, so the Worker's
 * bundle keeps it in a chunk of its own, out of every cold start. Reviews that arrive while it
 * loads wait for it; sampling and the one-at-a-time bound apply once it is there.
 */
export function loadShadow(options: ShadowOptions): Shadow {
  let shadow: Shadow | undefined;
  let loading: Promise<Shadow | undefined> | undefined;
  return (body, liveReply, trace) => {
    if (shadow) return shadow(body, liveReply, trace);
    loading ??= import("./shadow").then(
      (module) => (shadow = module.createShadow(options)),
      () => {
        options.log({
          level: "error",
          msg: "shadow comparison failed",
          error: "the shadow module did not load",
          ...trace,
        });
        return undefined;
      },
    );
    return loading.then((loaded) => loaded?.(body, liveReply, trace));
  };
}
