import { type ChildProcess, spawn } from "node:child_process";
import { createServer, type ServerResponse } from "node:http";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { functionUrlEvent } from "../test/bundles/function-url-event";
import { cpuSeconds } from "./http";
import { inRepo } from "./paths";

/**
 * A Lambda function URL on 127.0.0.1:PORT, as far as a load sees one: each invocation goes to
 * an instance that is not busy, a new one is started when none is idle (up to MAX_INSTANCES,
 * Lambda's concurrency), and an instance takes one invocation at a time. An instance is the
 * tests' Lambda host (test/bundles/lambda-host.mjs), a node process that imports the bundle
 * once as the runtime does; its first invocation is its cold start, marked `x-bench-cold: 1`.
 * The function's environment is this process's CRDSHIFT_* variables.
 *
 * `GET /stats`: the instances' CPU in seconds (user, system; cold: what they spent up to their
 * first replies; standIn: this process's own, which Lambda would not bill).
 * `POST /reset`: stops every instance, as a function after a deploy or an idle spell.
 */
const BUNDLE = inRepo("build/lambda/index.mjs");
const HOST = inRepo("test/bundles/lambda-host.mjs");
const MAX_INSTANCES = Number(process.env.MAX_INSTANCES ?? 10);
const functionEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith("CRDSHIFT_")));

interface Instance {
  child: ChildProcess;
  invocations: number;
  coldCpu: number;
  waiting: Array<(line: string) => void>;
}

let instances: Instance[] = [];
const idle: Instance[] = [];
const queued: Array<(instance: Instance) => void> = [];
/** CPU of instances stopped by a reset: read before they went, so /stats still counts them. */
const stoppedCpu = { user: 0, system: 0 };

function start(): Instance {
  const child = spawn(process.execPath, [HOST, BUNDLE], {
    env: { PATH: process.env.PATH ?? "", ...functionEnv },
    stdio: ["pipe", "ignore", "ignore", "pipe"],
  });
  const instance: Instance = { child, invocations: 0, coldCpu: 0, waiting: [] };
  createInterface({ input: child.stdio[3] as Readable }).on("line", (line) => instance.waiting.shift()?.(line));
  // An instance that dies mid-invocation is a 502 from the function URL, not a hung load.
  child.once("exit", (code) => {
    for (const answer of instance.waiting.splice(0))
      answer(JSON.stringify({ statusCode: 502, body: `the instance exited with code ${code}` }));
  });
  instances.push(instance);
  return instance;
}

function acquire(): Promise<Instance> {
  const ready = idle.pop();
  if (ready) return Promise.resolve(ready);
  if (instances.length < MAX_INSTANCES) return Promise.resolve(start());
  return new Promise((resolve) => queued.push(resolve));
}

function release(instance: Instance): void {
  const next = queued.shift();
  if (next) next(instance);
  else idle.push(instance);
}

function invoke(instance: Instance, event: unknown): Promise<string> {
  return new Promise((resolve) => {
    instance.waiting.push(resolve);
    (instance.child.stdin as Writable).write(`${JSON.stringify({ event })}\n`);
  });
}

const cpu = (instance: Instance) => cpuSeconds(instance.child.pid);
const total = (instance: Instance) => cpu(instance).user + cpu(instance).system;

async function answer(path: string, query: string, body: string, res: ServerResponse): Promise<void> {
  const instance = await acquire();
  const cold = instance.invocations++ === 0;
  const line = await invoke(instance, functionUrlEvent({ path, query, body }));
  if (cold) instance.coldCpu = total(instance);
  release(instance);
  const result = JSON.parse(line) as {
    statusCode: number;
    headers?: Record<string, string>;
    body?: string;
    isBase64Encoded?: boolean;
  };
  res.writeHead(result.statusCode, { ...result.headers, ...(cold ? { "x-bench-cold": "1" } : {}) });
  res.end(result.body === undefined ? "" : Buffer.from(result.body, result.isBase64Encoded ? "base64" : "utf8"));
}

async function reset(): Promise<void> {
  const stopping = instances;
  instances = [];
  idle.length = 0;
  for (const instance of stopping) {
    const { user, system } = cpu(instance);
    stoppedCpu.user += user;
    stoppedCpu.system += system;
  }
  await Promise.all(
    stopping.map(
      (instance) => new Promise((resolve) => (instance.child.once("exit", resolve), instance.child.stdin!.end())),
    ),
  );
}

createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://front");
  if (req.method === "GET" && url.pathname === "/healthz") return void res.end("ok");
  if (req.method === "GET" && url.pathname === "/stats") {
    const stats = {
      instances: instances.length,
      user: stoppedCpu.user + instances.reduce((sum, instance) => sum + cpu(instance).user, 0),
      system: stoppedCpu.system + instances.reduce((sum, instance) => sum + cpu(instance).system, 0),
      cold: instances.reduce((sum, instance) => sum + instance.coldCpu, 0),
      coldStarts: instances.filter((instance) => instance.invocations > 0).length,
      standIn: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
    };
    return void res.end(JSON.stringify(stats));
  }
  if (req.method === "POST" && url.pathname === "/reset") return void reset().then(() => res.end("ok"));
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    answer(url.pathname, url.search.slice(1), Buffer.concat(chunks).toString("utf8"), res).catch((error) => {
      res.writeHead(502).end(String(error));
    });
  });
}).listen(Number(process.env.PORT), "127.0.0.1");
process.on("SIGTERM", () => void reset().then(() => process.exit(0)));
