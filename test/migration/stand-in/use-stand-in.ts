import { afterAll, beforeAll } from "vitest";
import type { ApiserverStandIn, StandInOptions } from "./apiserver-stand-in";
import { startCluster, startWebhook } from "./scenario";

/**
 * For the test file that calls it: crdshift's webhook, started once before its tests, and
 * `cluster()`, a stand-in apiserver converting through that webhook and holding `objects` (by
 * default `seeded()`, fresh each call). Each cluster and the webhook are closed after the file.
 */
export function useStandIn(seeded: () => Record<string, unknown>[]) {
  let webhook: Awaited<ReturnType<typeof startWebhook>> | undefined;
  const clusters: ApiserverStandIn[] = [];

  beforeAll(async () => {
    webhook = await startWebhook();
  }, 30_000);

  afterAll(async () => {
    await Promise.all(clusters.map((cluster) => cluster.close()));
    await webhook?.close();
  });

  return {
    async cluster(options: Omit<StandInOptions, "crd" | "webhookUrl"> = {}, objects = seeded()) {
      const started = await startCluster({ ...options, webhookUrl: webhook!.url }, objects);
      clusters.push(started.apiserver);
      return started;
    },
  };
}
