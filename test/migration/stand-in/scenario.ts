import { readFileSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { serve } from "crdshift/node";
import { parse } from "yaml";
import { registry } from "../../../examples";
import { main } from "../../../src/cli/main";
import { ApiserverStandIn, type StandInOptions } from "./apiserver-stand-in";
import { writeKubeconfig } from "./kubeconfig";

const root = new URL("../../../", import.meta.url);

/** crdshift's own Node server with the examples' registry, on 127.0.0.1: the CRD's webhook. */
export async function startWebhook(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = serve(registry, { port: 0, hostname: "127.0.0.1", banner: false, handleSignals: false, env: {} });
  const { url } = await server.listening;
  return { url, close: () => server.close() };
}

/**
 * The examples' CronTab CRD as the cluster would hold it after the docs page's step 1: v1 marked
 * storage: true, status.storedVersions [v1beta1, v1], its webhook at `webhookUrl`.
 */
export function crontabCrd(webhookUrl: string): Record<string, unknown> {
  const crd = parse(readFileSync(new URL("examples/crds/crontabs.example.com.yaml", root), "utf8")) as {
    spec: { conversion: { webhook: { clientConfig: { url: string } } } };
  };
  crd.spec.conversion.webhook.clientConfig.url = webhookUrl;
  return { ...crd, status: { storedVersions: ["v1beta1", "v1"], acceptedNames: {}, conditions: [] } };
}

export function v1beta1(namespace: string, name: string, hostPort: string): Record<string, unknown> {
  return { apiVersion: "example.com/v1beta1", kind: "CronTab", metadata: { name, namespace }, hostPort };
}

export function v1(namespace: string, name: string, host: string, port: string): Record<string, unknown> {
  return { apiVersion: "example.com/v1", kind: "CronTab", metadata: { name, namespace }, host, port };
}

/** A stand-in apiserver holding `objects`, and a kubeconfig that points at it. */
export async function startCluster(
  options: Omit<StandInOptions, "crd">,
  objects: Record<string, unknown>[],
): Promise<{ apiserver: ApiserverStandIn; kubeconfig: string }> {
  const apiserver = new ApiserverStandIn({ ...options, crd: crontabCrd(options.webhookUrl) });
  for (const object of objects) apiserver.store.seed(object);
  const origin = await apiserver.listen();
  const kubeconfig = writeKubeconfig(origin);
  const close = apiserver.close.bind(apiserver);
  apiserver.close = async () => {
    rmSync(dirname(kubeconfig), { recursive: true, force: true });
    await close();
  };
  return { apiserver, kubeconfig };
}

/** The crdshift command in-process, its output captured. */
export async function crdshift(args: string[], stdin = "") {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    out: (text) => (stdout += text),
    err: (text) => (stderr += text),
    stdin: () => stdin,
    cwd: new URL(".", root).pathname,
  });
  return { code, stdout, stderr };
}

/** The version each object is stored in, by key. */
export function storedVersions(apiserver: ApiserverStandIn): Record<string, string> {
  return Object.fromEntries([...apiserver.store.objects].map(([key, stored]) => [key, stored.storedVersion]));
}
