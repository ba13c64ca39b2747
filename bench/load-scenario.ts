import { gunzipSync } from "node:zlib";
import { checkReply, type SentReview } from "../src/kube/apiserver";
import { ApiserverClient, type Call } from "./apiserver-client";
import { drive, type Unit } from "./apiserver-pattern";
import type { Target } from "./load-targets";
import { median, percentile } from "./stats";

/** One of the apiserver's patterns: what a unit is, how many run at once, and the units. */
export interface Scenario {
  name: string;
  unit: "object" | "event";
  concurrency: number;
  units: (offset: number) => Unit[];
}

/** A scenario's figures on one server. Latencies leave cold starts out; those are counted apart. */
export interface Measured {
  server: string;
  platform: Target["platform"];
  scenario: string;
  unit: Scenario["unit"];
  concurrency: number;
  units: number;
  calls: number;
  wallMs: number;
  /** Units (objects or events) per second of wall time, cold starts included. */
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  callP50Ms: number;
  callP99Ms: number;
  coldStarts: number;
  coldP50Ms: number;
  coldMaxMs: number;
  /** The server's CPU per warm call (user + system), what cold starts spent taken out. */
  serverCpuUs: number;
  serverSystemUs: number;
  /**
   * The server's CPU over the wall time, cold starts included: how much of a core it got. Well
   * under its share of the load means it waited, for the client or for a core others held.
   */
  serverCores: number;
  /** CPU per cold start: the instance's start, import and first call. */
  coldCpuMs: number;
  /** The Lambda stand-in's own CPU per call: the function URL's work, not the function's. */
  standInCpuUs: number;
  /** This process's CPU per call: the load generator's share of the two cores. */
  clientCpuUs: number;
  /** Calls the apiserver would not accept, with the first few reasons. */
  rejected: number;
  reasons: string[];
}

export async function measure(target: Target, scenario: Scenario, offset: number, gzip = true): Promise<Measured> {
  const { peer } = target;
  const units = scenario.units(offset);
  await target.fresh?.(peer);
  const url = new URL(`http://127.0.0.1:${peer.port}${peer.path}`);
  const client = new ApiserverClient(url, scenario.concurrency, gzip);
  const before = await target.cpu(peer);
  const clientBefore = process.cpuUsage();
  const driven = await drive(client, units, scenario.concurrency);
  const clientAfter = process.cpuUsage(clientBefore);
  const after = await target.cpu(peer);
  client.close();

  const warm = driven.calls.filter((call) => !call.cold);
  const cold = driven.calls.filter((call) => call.cold).map((call) => call.ms);
  const coldUnits = new Set(driven.calls.filter((call) => call.cold).map((call) => call.unitIndex));
  const warmUnits = driven.unitMs.filter((_, i) => !coldUnits.has(i));
  const reasons = driven.calls.map(rejection).filter((reason): reason is string => reason !== undefined);
  const serverUs = (after.user + after.system - before.user - before.system - after.cold + before.cold) * 1e6;
  return {
    server: peer.name,
    platform: target.platform,
    scenario: scenario.name,
    unit: scenario.unit,
    concurrency: scenario.concurrency,
    units: units.length,
    calls: driven.calls.length,
    wallMs: driven.wallMs,
    perSecond: (units.length * 1000) / driven.wallMs,
    p50Ms: median(warmUnits),
    p99Ms: percentile(warmUnits, 99),
    callP50Ms: median(warm.map((call) => call.ms)),
    callP99Ms: percentile(
      warm.map((call) => call.ms),
      99,
    ),
    coldStarts: cold.length,
    coldP50Ms: cold.length ? median(cold) : Number.NaN,
    coldMaxMs: cold.length ? Math.max(...cold) : Number.NaN,
    serverCpuUs: serverUs / warm.length,
    serverSystemUs: ((after.system - before.system) * 1e6) / warm.length,
    serverCores: (after.user + after.system - before.user - before.system) / (driven.wallMs / 1000),
    coldCpuMs: cold.length ? ((after.cold - before.cold) * 1000) / cold.length : Number.NaN,
    standInCpuUs: (((after.standIn ?? Number.NaN) - (before.standIn ?? Number.NaN)) * 1e6) / driven.calls.length,
    clientCpuUs: (clientAfter.user + clientAfter.system) / driven.calls.length,
    rejected: reasons.length,
    reasons: [...new Set(reasons)].slice(0, 3),
  };
}

/**
 * Why the apiserver would not take this reply, or undefined: a status other than 200, a
 * Failure, a wrong uid or object count (the apiserver's own checks), or an object the
 * CronTab's v1beta1 -> v1 converter did not split into host and port.
 */
function rejection(call: Call): string | undefined {
  const reply = (call.gzip ? gunzipSync(call.reply) : call.reply).toString("utf8");
  if (call.status !== 200) return `HTTP ${call.status}: ${reply.slice(0, 200)}`;
  const sent = JSON.parse(call.sent) as SentReview;
  const verdict = checkReply(sent, call.status, reply, call.contentType);
  if (!verdict.ok) return verdict.error;
  const [object] = verdict.objects as Array<{ host?: string; port?: string }>;
  const { hostPort } = sent.request.objects[0] as { hostPort: string };
  if (`${object?.host}:${object?.port}` !== hostPort) return `not converted: ${JSON.stringify(object).slice(0, 200)}`;
  return undefined;
}
