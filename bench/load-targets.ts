import { createServer } from "node:net";
import { CRDSHIFT_SERVER, cpuSeconds, NAIVE_WEBHOOK, type Peer } from "./http";
import { besideBench } from "./paths";
import { descendantsNamed } from "./process-memory";

const TOKEN = "bench-token-0123456789abcdef";

/** CPU a server spent, in seconds; cold: what its instances spent up to their first reply (Lambda). */
export interface ServerCpu {
  user: number;
  system: number;
  cold: number;
  /** What a stand-in for the platform spent itself (the function URL's): not the server's. */
  standIn?: number;
}

/** A server the load drives: a peer `withServers` starts, and how to read the CPU it spends. */
export interface Target {
  peer: Peer;
  /** Which platform's figures it gives. */
  platform: "node" | "workerd" | "lambda";
  cpu(peer: Peer): Promise<ServerCpu>;
  /** Before each scenario: the Lambda stand-in stops its instances, so each scenario starts cold. */
  fresh?(peer: Peer): Promise<void>;
}

/** A port nothing listens on now: the load's servers must not meet another bench's fixed ports. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

const processCpu = (pid: number | undefined): ServerCpu => ({ ...cpuSeconds(pid), cold: 0 });

export async function nodeTargets(): Promise<[Target, Target]> {
  return [
    { peer: { ...CRDSHIFT_SERVER, port: await freePort() }, platform: "node", cpu: async (p) => processCpu(p.pid) },
    { peer: { ...NAIVE_WEBHOOK, port: await freePort() }, platform: "node", cpu: async (p) => processCpu(p.pid) },
  ];
}

/** The built Worker in workerd: its CPU is the workerd process's, not its node parent's. */
export async function workerdTarget(): Promise<Target> {
  return {
    peer: {
      name: "workerd",
      script: besideBench("workerd-server.mjs"),
      port: await freePort(),
      path: `/convert/${TOKEN}`,
      env: { CRDSHIFT_TOKEN: TOKEN },
    },
    platform: "workerd",
    cpu: async (p) => processCpu(descendantsNamed(p.pid!, "workerd")[0]),
  };
}

/** The Lambda bundle behind the function URL stand-in: its CPU is its instances', not the stand-in's. */
export async function lambdaTarget(): Promise<Target> {
  const stats = async (p: Peer, method = "GET", path = "/stats") =>
    (await fetch(`http://127.0.0.1:${p.port}${path}`, { method })).text();
  return {
    peer: {
      name: "lambda",
      script: besideBench("lambda-front.mjs"),
      port: await freePort(),
      path: `/convert/${TOKEN}`,
      env: { CRDSHIFT_TOKEN: TOKEN },
    },
    platform: "lambda",
    cpu: async (p) => JSON.parse(await stats(p)) as ServerCpu,
    fresh: async (p) => void (await stats(p, "POST", "/reset")),
  };
}
