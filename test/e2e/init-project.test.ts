import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkReply, type SentReview } from "../../src/kube/apiserver/apiserver-checks";
import { listeningOn, offlineEnv, run } from "./run";

/**
 * `crdshift init` as a CRD author runs it, from the tarball `npm pack` makes, in a fresh folder
 * outside this repository: init from a CRD whose two versions share one schema, npm install,
 * tsc, npm test and npm start with no edits, a real conversion and a refused one over HTTP, the
 * Worker and the CDK app built. Then a CRD whose versions differ: generate adds its kind,
 * `crdshift check` exits 1 naming the fields, and passes once the converters are written.
 *
 * It needs a built dist/ (npm run build; npm test does), and fails without one rather than skip.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const TOKEN = "init-project-token-0123456789";

/** Runs a command in `cwd` offline; throws with its output when it fails. */
const ok = (command: string, args: string[], cwd: string, extra?: Record<string, string>) =>
  run(command, args, { cwd, env: offlineEnv(extra) });
/** The same, for a command expected to fail: its exit code is the caller's to check. */
const sh = (command: string, args: string[], cwd: string) => run(command, args, { cwd, allowFailure: true });

/** npm start's whole process group (npm, sh, node), if it is still there. */
function stop(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, "SIGTERM");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

let dir: string;
let project: string;
let tarball: string;
const running: ChildProcess[] = [];

const widget = {
  apiVersion: "example.com/v1beta1",
  kind: "Widget",
  metadata: {
    name: "front",
    namespace: "default",
    uid: "6a1d2c3e-0000-4000-8000-000000000001",
    labels: { app: "web" },
  },
  spec: {
    size: 3,
    bytes: 4294967296,
    mode: "Small",
    schedule: "12:30",
    maxUnavailable: "25%",
    labels: { tier: "front" },
    ports: [{ name: "http", protocol: "TCP", port: 80 }],
    template: {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "p" },
      spec: { containers: [{ name: "c", image: "nginx" }] },
    },
    source: { git: "https://example.com/repo.git" },
    target: { host: "example.com" },
    bounds: { low: 0.5 },
  },
  status: {
    phase: "Ready",
    conditions: [{ type: "Ready", status: "True", lastTransitionTime: "2026-01-02T03:04:05Z" }],
  },
};
const review = (objects: unknown[]): SentReview => ({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "ConversionReview",
  request: {
    uid: "0b5e8e4e-2f6a-4c36-9d1e-6d0f2c1a7e11",
    desiredAPIVersion: "example.com/v1",
    objects: objects as SentReview["request"]["objects"],
  },
});

// Gadget's converters as an author writes them over the generated TODOs (cf. test/testing/gadget-kind.ts).
const GADGET_CONVERTERS = `import { defineKind, refuse, stashFields, unstashFields } from "crdshift";
import { versions, type V2 } from "./gadgets.example.com.schemas.js";

function number(text: string, field: string): number | bigint {
  if (!/^(0|-?[1-9][0-9]*)$/.test(text)) throw refuse("not-a-number", \`spec.\${field} \${JSON.stringify(text)} is not a plain number\`);
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : BigInt(text);
}

export const gadget = defineKind({
  group: "example.com",
  kind: "Gadget",
  versions,
  refusals: {
    "v1->v2": { "not-a-number": "v2 holds sizes and ports as integers", "no-port": "v2 holds a host and a port only together" },
    "v2->v1": { "host-or-port-alone": "v1's hostPort needs both a host and a port" },
  },
  converters: {
    v2: {
      v1: ({ spec, status, ...rest }, { refuse }) => {
        const out = stashFields(rest, { status });
        if (spec === undefined) return out;
        const { host, port, size, ...keep } = spec;
        if ((host === undefined) !== (port === undefined)) throw refuse("host-or-port-alone", "v1 needs both spec.host and spec.port");
        return { ...out, spec: { ...keep, ...(size !== undefined ? { size: String(size) } : {}), ...(host !== undefined ? { hostPort: \`\${host}:\${String(port)}\` } : {}) } };
      },
    },
    v1: {
      v2: (object) => {
        const { object: unstashed, fields } = unstashFields(object);
        const { spec, ...rest } = unstashed;
        const out = fields.status === undefined ? rest : { ...rest, status: fields.status as V2["status"] };
        if (spec === undefined) return out;
        const { hostPort, size, ...keep } = spec;
        const next: NonNullable<V2["spec"]> = { ...keep };
        if (size !== undefined) next.size = number(size, "size");
        if (hostPort !== undefined) {
          const colon = hostPort.lastIndexOf(":");
          if (colon < 0) throw refuse("no-port", \`spec.hostPort \${JSON.stringify(hostPort)} is not host:port\`);
          next.host = hostPort.slice(0, colon);
          next.port = number(hostPort.slice(colon + 1), "hostPort's port");
        }
        return { ...out, spec: next };
      },
    },
  },
});
`;

describe("crdshift init, from the packed tarball to a project that passes its own checks", () => {
  beforeAll(async () => {
    for (const file of ["dist/index.js", "dist/cli.js"]) {
      if (!existsSync(join(root, file))) throw new Error(`${file} is missing: run \`npm run build\` (npm test does)`);
    }
    dir = mkdtempSync(join(tmpdir(), "crdshift-init-"));
    // --ignore-scripts: npm test has built dist/ already; building again would change it under the other tests.
    const pack = await ok("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], root);
    tarball = join(dir, (JSON.parse(pack.stdout) as Array<{ filename: string }>)[0]!.filename);
    cpSync(join(root, "test/fixtures/crds/widgets.example.com.yaml"), join(dir, "widgets.yaml"));
    cpSync(join(root, "test/fixtures/crds/gadgets.example.com.yaml"), join(dir, "gadgets.yaml"));
    project = join(dir, "hook");
  });

  afterAll(() => {
    for (const child of running) stop(child);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("npx crdshift init writes the project", async () => {
    const ran = await ok(
      "npx",
      [
        "--yes",
        "--prefer-offline",
        `--package=${tarball}`,
        "--",
        "crdshift",
        "init",
        "hook",
        "--crd",
        "widgets.yaml",
        "--crdshift",
        `file:${tarball}`,
      ],
      dir,
    );
    expect(ran.stdout).toContain("src/kinds/widgets.example.com.ts: Widget.example.com (v1, v1beta1), ready");
    // The tarball is copied into the project and named relative to it.
    expect(JSON.parse(readFileSync(join(project, "package.json"), "utf8")).dependencies.crdshift).toBe(
      `file:vendor/${basename(tarball)}`,
    );
  });

  it("installs, type-checks and passes its tests with no edits", async () => {
    await ok("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], project);
    await ok("npx", ["--no-install", "tsc", "--noEmit"], project);
    const test = await ok("npm", ["test"], project);
    expect(test.stdout).toMatch(/2 passed/);
  });

  it("npm start serves it: v1beta1 -> v1 changes only apiVersion; a field of the wrong type is a Failure naming it", async () => {
    const server = spawn("npm", ["start"], {
      cwd: project,
      env: offlineEnv({ PORT: "0", HOST: "127.0.0.1", CRDSHIFT_TOKEN: TOKEN }),
      detached: true,
    });
    running.push(server);
    const base = await listeningOn(server, "npm start");
    const post = async (sent: SentReview) => {
      const res = await fetch(`${base}/convert/${TOKEN}?timeout=30s`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(sent),
      });
      const text = await res.text();
      return { verdict: checkReply(sent, res.status, text, res.headers.get("content-type") ?? "") };
    };
    const converted = await post(review([widget]));
    // As the apiserver keeps it: unchanged but for apiVersion.
    expect(converted.verdict).toEqual({ ok: true, objects: [{ ...widget, apiVersion: "example.com/v1" }] });
    // What kubectl would print: the apiserver's words around the webhook's message.
    const refused = await post(review([{ ...widget, spec: { ...widget.spec, ports: "80" } }]));
    expect(refused.verdict).toMatchObject({
      ok: false,
      error: expect.stringMatching(/does not match the v1beta1 schema: spec\.ports: /),
    });
    stop(server);
  });

  it("builds the Worker and synthesizes the CDK app", async () => {
    await ok("npm", ["run", "build:worker"], project);
    const home = join(dir, "home");
    mkdirSync(home);
    await ok("npm", ["run", "synth:aws", "--", "--no-notices"], project, { HOME: home });
    expect(existsSync(join(project, "cdk.out"))).toBe(true);
  });

  it("a CRD whose versions differ: generate adds the kind, check exits 1 naming the fields, and passes once the converters are written", async () => {
    cpSync(join(dir, "gadgets.yaml"), join(project, "crds/gadgets.yaml"));
    const generated = await ok("npx", ["--no-install", "crdshift", "generate", "--crd", "crds/gadgets.yaml"], project);
    expect(generated.stdout).toContain("a new kind: add gadget to your registry");
    const registry = join(project, "src/registry.ts");
    writeFileSync(
      registry,
      readFileSync(registry, "utf8")
        .replace("createRegistry([widget])", "createRegistry([widget, gadget])")
        .replace('from "crdshift";\n', 'from "crdshift";\nimport { gadget } from "./kinds/gadgets.example.com.js";\n'),
    );
    await ok("npx", ["--no-install", "tsc", "--noEmit"], project);

    const todo = await sh(
      "npx",
      ["--no-install", "crdshift", "check", "--crd", "crds/gadgets.yaml", "--runs", "50"],
      project,
    );
    expect(todo.code).toBe(1);
    expect(todo.stderr).toMatch(
      /crdshift check: FAILED\nGadget\.example\.com (v2 -> v1 -> v2|v1 -> v2 -> v1)( \(a partial object\))?: /,
    );
    expect(todo.stderr).toContain("only v1 has spec.hostPort");

    writeFileSync(join(project, "src/kinds/gadgets.example.com.ts"), GADGET_CONVERTERS);
    await ok("npx", ["--no-install", "tsc", "--noEmit"], project);
    const done = await ok(
      "npx",
      ["--no-install", "crdshift", "check", "--crd", "crds/gadgets.yaml", "--crd", "crds/widgets.yaml", "--runs", "50"],
      project,
    );
    expect(done.stdout).toMatch(/\nok: (every version of 2 kind\(s\) reaches every other one|2 kind\(s\) against )/);
  });
});
