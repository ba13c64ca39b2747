import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import * as z from "zod";
import { parseDocuments } from "../../src/cli/io";
import { main } from "../../src/cli/main";
import { checkReply, type SentReview } from "../../src/kube/apiserver/apiserver-checks";

const root = fileURLToPath(new URL("../..", import.meta.url));
const BIN = `${root}bin/crdshift.mjs`;
/**
 * For the tests below that start processes (node, npx): seconds each on a quiet machine, but with
 * two suites on 2 cores a spawn of npx took past the 30 s default. A hang still ends the test.
 */
const SPAWNS = { timeout: 120_000 };
const URL_WITH_TOKEN = "https://crdshift.example.workers.dev/convert/cli-test-token-0123456789";

/** The real command, as `npx crdshift` runs it: node, the bin file, the repo as cwd. */
function crdshift(args: string[], input?: string) {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd: root, input, encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The same in-process, for cases that need no process of their own. */
async function run(args: string[], stdin = "", cwd = root) {
  let stdout = "";
  let stderr = "";
  const code = await main(args, { out: (t) => (stdout += t), err: (t) => (stderr += t), stdin: () => stdin, cwd });
  return { code, stdout, stderr };
}

describe("crdshift convert", SPAWNS, () => {
  it("turns the docs example's v1beta1 objects into v1 (from a clean checkout, through npx)", () => {
    const result = spawnSync(
      "npx",
      ["--no-install", "crdshift", "convert", "-f", "examples/objects/docs-v1beta1.yaml", "--to", "example.com/v1"],
      { cwd: root, encoding: "utf8" },
    );
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.status).toBe(0);
    const documents = result.stdout.split(/^---$/m).map((doc) => parse(doc));
    expect(documents).toEqual([
      {
        apiVersion: "example.com/v1",
        kind: "CronTab",
        metadata: { name: "local-crontab", namespace: "default" },
        host: "localhost",
        port: "1234",
      },
      {
        apiVersion: "example.com/v1",
        kind: "CronTab",
        metadata: { name: "remote-crontab" },
        host: "example.com",
        port: "2345",
      },
    ]);
  });

  it("answers a ConversionReview as the webhook would, read from stdin, as JSON", async () => {
    const sent = JSON.parse(readFileSync(`${root}examples/requests/docs-v1.json`, "utf8")) as SentReview;
    const { code, stdout } = await run(
      ["convert", "-f", "-", "--to", "example.com/v1", "-o", "json"],
      JSON.stringify(sent),
    );
    expect(code).toBe(0);
    expect(checkReply(sent, 200, stdout)).toMatchObject({ ok: true });
  });

  it("passes through and reports kinds it does not serve; converts the items of a List", async () => {
    const list = {
      apiVersion: "v1",
      kind: "List",
      items: [
        { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "settings" }, data: { a: "b" } },
        { apiVersion: "example.com/v1alpha1", kind: "CronTab", metadata: { name: "old" }, endpoint: "h:1" },
      ],
    };
    const { code, stdout, stderr } = await run(
      ["convert", "-f", "-", "--to", "example.com/v1beta1", "-o", "json"],
      JSON.stringify(list),
    );
    expect(code).toBe(0);
    expect(JSON.parse(stdout).items).toEqual([
      list.items[0],
      { apiVersion: "example.com/v1beta1", kind: "CronTab", metadata: { name: "old" }, hostPort: "h:1" },
    ]);
    expect(stderr).toBe(
      "crdshift: stdin: document 0 (settings) ConfigMap v1: not in group example.com; passed through unchanged\n",
    );
  });

  it("writes nothing and exits 1 when an object cannot be converted, naming it and the cause", async () => {
    const yaml =
      "apiVersion: example.com/v1beta1\nkind: CronTab\nmetadata: {name: bad, namespace: prod}\nhostPort: nope\n";
    const { code, stdout, stderr } = await run(["convert", "-f", "-", "--to", "example.com/v1"], yaml);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      "crdshift: stdin: document 0 (prod/bad): CronTab example.com/v1beta1 -> example.com/v1: hostPort could not be parsed into a separate host and port\n",
    );
  });

  it("keeps int64 values exact from YAML, as kubectl get -o yaml prints them, to YAML and JSON", async () => {
    const yaml =
      "apiVersion: example.com/v1beta1\nkind: CronTab\nmetadata: {name: big}\nhostPort: h:1\nspec:\n  replicasMax: 9223372036854775807\n  floor: -9223372036854775808\n  count: 3\n";
    const asYaml = await run(["convert", "-f", "-", "--to", "example.com/v1"], yaml);
    expect(asYaml).toMatchObject({ code: 0, stderr: "" });
    expect(asYaml.stdout).toContain("  replicasMax: 9223372036854775807\n  floor: -9223372036854775808\n  count: 3\n");
    const asJson = await run(["convert", "-f", "-", "--to", "example.com/v1", "-o", "json"], yaml);
    expect(asJson.stdout).toContain(
      '"replicasMax": 9223372036854775807,\n    "floor": -9223372036854775808,\n    "count": 3\n',
    );
  });

  it("hands converters what the webhook would: integers beyond 2^53 as bigint, the rest as numbers", () => {
    const [object] = parseDocuments(
      "a: 9223372036854775807\nb: 3\nc: 1.5\nd: 0x10\ne: [-9007199254740993, 9007199254740991]\n",
      "stdin",
    );
    expect(object).toEqual({ a: 9223372036854775807n, b: 3, c: 1.5, d: 16, e: [-9007199254740993n, 9007199254740991] });
  });

  it("exits 2 with a clear message for bad usage and unreadable input", async () => {
    expect(await run(["convert", "-f", "-"])).toMatchObject({
      code: 2,
      stderr: "crdshift: --to GROUP/VERSION is required\n",
    });
    expect(await run(["convert", "-f", "missing.yaml", "--to", "example.com/v1"])).toMatchObject({
      code: 2,
      stderr: "crdshift: cannot read missing.yaml: ENOENT\n",
    });
    expect(await run(["convert", "-f", "-", "--to", "v1"], "a: 1")).toMatchObject({
      code: 2,
      stderr: 'crdshift: --to must be GROUP/VERSION, like example.com/v1; got "v1"\n',
    });
    expect((await run(["convert", "-f", "-", "--to", "example.com/v1"], "a: [")).code).toBe(2);
    expect((await run(["convert", "--frobnicate"])).stderr).toMatch(
      /^crdshift: Unknown option '--frobnicate'.*see crdshift convert --help\n$/,
    );
    expect((await run(["transmogrify"])).code).toBe(2);
  });
});

/** What apiextensions.k8s.io/v1 requires of a CRD with a webhook (the parts crdshift writes). */
const crdV1 = z.object({
  apiVersion: z.literal("apiextensions.k8s.io/v1"),
  kind: z.literal("CustomResourceDefinition"),
  metadata: z.object({ name: z.string() }),
  spec: z.object({
    group: z.string(),
    names: z.object({ kind: z.string(), plural: z.string() }).loose(),
    scope: z.enum(["Namespaced", "Cluster"]),
    versions: z.array(z.object({ name: z.string(), served: z.boolean(), storage: z.boolean() }).loose()).min(1),
    conversion: z.strictObject({
      strategy: z.literal("Webhook"),
      webhook: z.strictObject({
        conversionReviewVersions: z
          .array(z.string())
          .refine((v) => v.includes("v1") || v.includes("v1beta1"), "must include at least one of v1, v1beta1"),
        clientConfig: z.strictObject({ url: z.url({ protocol: /^https$/ }), caBundle: z.optional(z.string()) }),
      }),
    }),
    preserveUnknownFields: z.optional(z.literal(false)),
  }),
});

describe("crdshift crd", SPAWNS, () => {
  it("writes a CRD the v1 schema accepts with the conversion stanza, keeping the input's comments", () => {
    const { code, stdout, stderr } = crdshift([
      "crd",
      "-f",
      "examples/crds/crontabs.example.com.no-webhook.yaml",
      "--url",
      URL_WITH_TOKEN,
    ]);
    expect(code).toBe(0);
    const crd = crdV1.parse(parse(stdout));
    expect(crd.spec.conversion).toEqual({
      strategy: "Webhook",
      webhook: { conversionReviewVersions: ["v1", "v1beta1"], clientConfig: { url: URL_WITH_TOKEN } },
    });
    expect(stdout).toContain('endpoint: { type: string } # "host:port"');
    expect(stderr).not.toContain("cli-test-token"); // the token stays out of the notes
  });

  it("keeps int64 bounds in the CRD's schemas exact", async () => {
    const crd = readFileSync(`${root}examples/crds/crontabs.example.com.no-webhook.yaml`, "utf8").replace(
      "protocol: { type: string }",
      "protocol: { type: string }\n            limit: { type: integer, format: int64, minimum: -9223372036854775808, maximum: 9223372036854775807 }",
    );
    const { code, stdout } = await run(["crd", "-f", "-", "--url", URL_WITH_TOKEN], crd);
    expect(code).toBe(0);
    expect(stdout).toContain(
      "limit: { type: integer, format: int64, minimum: -9223372036854775808, maximum: 9223372036854775807 }",
    );
  });

  it("uses the v1beta1 layout for a v1beta1 CRD, and turns pruning on as the apiserver requires", async () => {
    const v1beta1 = `apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata: {name: crontabs.stable.example.com}
spec:
  group: stable.example.com
  names: {kind: CronTab, plural: crontabs}
  scope: Namespaced
  versions: [{name: v1, served: true, storage: true}, {name: v2, served: true, storage: false}]
`;
    const { code, stdout } = await run(["crd", "-f", "-", "--url", URL_WITH_TOKEN], v1beta1);
    expect(code).toBe(0);
    const spec = parse(stdout).spec;
    expect(spec.conversion).toEqual({
      strategy: "Webhook",
      conversionReviewVersions: ["v1", "v1beta1"],
      webhookClientConfig: { url: URL_WITH_TOKEN },
    });
    expect(spec.preserveUnknownFields).toBe(false);
  });

  it("refuses URLs the apiserver would refuse, with its words", async () => {
    const crd = readFileSync(`${root}examples/crds/crontabs.example.com.no-webhook.yaml`, "utf8");
    const refuse = async (url: string) => (await run(["crd", "-f", "-", "--url", url], crd)).stderr;
    expect(await refuse("http://h/convert")).toBe(
      "crdshift: --url: 'https' is the only allowed URL scheme; desired format: https://host[/path]\n",
    );
    expect(await refuse("https://user:pw@h/convert")).toBe(
      "crdshift: --url: user information is not permitted in the URL\n",
    );
    expect(await refuse("https://h/convert?x=1")).toBe(
      "crdshift: --url: query parameters are not permitted in the URL\n",
    );
    expect(await refuse("https://h/convert#x")).toBe("crdshift: --url: fragments are not permitted in the URL\n");
  });

  it("refuses a CRD with a single version, and one whose versions differ from the registry's", async () => {
    const crd = readFileSync(`${root}examples/crds/crontabs.example.com.no-webhook.yaml`, "utf8");
    // Everything from v1alpha1 up to v1: only v1 is left.
    const single = crd.replace(/ {4}- name: v1alpha1[\s\S]*?(?= {4}- name: v1\n)/, "");
    const one = await run(["crd", "-f", "-", "--url", URL_WITH_TOKEN], single);
    expect(one).toMatchObject({
      code: 1,
      stdout: "",
      stderr:
        "crdshift: crontabs.example.com: it has a single version (v1): with nothing to convert between, it needs no conversion webhook\n",
    });
    const differ = await run(["crd", "-f", "-", "--url", URL_WITH_TOKEN], crd.replace("name: v1alpha1", "name: v2"));
    expect(differ).toMatchObject({
      code: 1,
      stderr:
        "crdshift: crontabs.example.com: the CRD's versions (v2, v1, v1beta1) differ from the registry's for CronTab.example.com (v1, v1beta1, v1alpha1): the registry lacks v2; the CRD lacks v1alpha1\n",
    });
  });
});

describe("crdshift check", SPAWNS, () => {
  it("passes on the examples against the CRDs this repository's crdshift.config.ts names, with each pair's coverage and its refusals by declared reason", () => {
    const { code, stdout } = crdshift(["check", "--runs", "50"]);
    expect(stdout).toContain("CronTab.example.com against examples/crds/crontabs.example.com.yaml\n");
    expect(stdout).toMatch(
      /\n {2}v1 -> v1beta1 -> v1 {2}50 round trips of \d+ objects generated, [1-9]\d* refused as declared; the round trips through the apiserver's pruning, each result valid in v1beta1\n {4}refused [1-9]\d* for "host-or-port-alone" \(v1beta1's hostPort holds a host and a port only together\), e\.g\. "host and port must both be set to form hostPort"\n/,
    );
    expect(stdout).toContain("CronTab.example.com\n  v1 -> v1beta1 -> v1  ");
    // These CRDs have no CEL rules: no count of objects held to them.
    expect(stdout).not.toContain("CEL rules");
    expect(stdout).toMatch(
      /\n {2}v1 -> v1beta1 -> v1 {2}50 round trips of \d+ objects generated, [1-9]\d* refused as declared\n( {4}refused [1-9]\d* for "(host-or-port-alone|colon-in-port)" \(.*\), e\.g\. "(host and port must both be set to form hostPort|port \\".*\\" must not contain \\":\\")"\n)+/,
    );
    expect(stdout).toMatch(
      /\nok: 2 kind\(s\) against examples\/crds\/crontabs\.example\.com\.yaml, examples\/crds\/crontabs\.stable\.example\.com\.yaml: /,
    );
    expect(code).toBe(0);
  });

  it("fails on a deliberately broken converter, naming the pair and the lost field", () => {
    const { code, stderr } = crdshift(["check", "--registry", "test/fixtures/broken-registry.ts", "--seed", "42"]);
    expect(code).toBe(1);
    // v2 is tried first (Kubernetes' order); its unknown spec fields are lost the same way.
    expect(stderr).toMatch(
      /crdshift check: FAILED\nGauge\.broken\.example\.com (v1 -> v2 -> v1|v2 -> v1 -> v2): not the same after the round trip: spec(\.unit|\[".*"\]|\.\w+) was .*, came back missing\n {2}object: \{/,
    );
  });

  it("fails on a converter with a bug, naming the error and where in the converter's source it happened", () => {
    const { code, stdout, stderr } = crdshift([
      "check",
      "--registry",
      "test/fixtures/buggy-registry.ts",
      "--runs",
      "30",
      "--seed",
      "42",
    ]);
    expect(stdout).not.toMatch(/^ok/m);
    expect(stderr).toMatch(
      /^\ncrdshift check: FAILED\nTimer\.buggy\.example\.com v2 -> v1 -> v2: converting to v1 threw ReferenceError: formatSchedule is not defined: a bug in the converter, not a refusal \(to refuse an object, throw context\.refuse\(reason, message\) with a reason the pair declares\)\n {2}at .*test\/fixtures\/buggy-registry\.ts:\d+:\d+\)?\n {2}object: \{/,
    );
    expect(code).toBe(1);
  });
});

describe("finding the registry", SPAWNS, () => {
  const inTempDir = async (files: Record<string, string>, test: (dir: string) => Promise<void>) => {
    const dir = mkdtempSync(join(tmpdir(), "crdshift-cli-"));
    try {
      for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
      await test(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it("exits 2 where there is no crdshift.config.* and no --registry, saying how to point at one", () =>
    inTempDir({}, async (dir) => {
      const { code, stdout, stderr } = await run(["check", "--runs", "1"], "", dir);
      expect(code).toBe(2);
      expect(stdout).toBe("");
      expect(stderr).toBe(
        `crdshift: no registry: found no crdshift.config.ts, crdshift.config.mts, crdshift.config.js, crdshift.config.mjs in ${dir}. ` +
          'Create crdshift.config.ts exporting your registry (export { registry } from "./src/registry.js"), or name its module with --registry FILE\n',
      );
    }));

  it("loads crdshift.config.* from the current directory, a default export too", () =>
    inTempDir(
      {
        "crdshift.config.mjs": `export { registry as default } from ${JSON.stringify(`${root}test/fixtures/broken-registry.ts`)};\n`,
      },
      async (dir) => {
        const { code, stderr } = await run(["check", "--seed", "42"], "", dir);
        expect(code).toBe(1);
        expect(stderr).toContain("Gauge.broken.example.com");
      },
    ));

  it("takes --registry relative to the current directory, and names it when it exports none", () =>
    inTempDir({ "kinds.ts": "export const notARegistry = 1;\n" }, async (dir) => {
      expect(await run(["check", "--registry", "kinds.ts"], "", dir)).toMatchObject({
        code: 2,
        stderr:
          'crdshift check: --registry kinds.ts exports no registry — export const registry = createRegistry([...]) (or export { registry } from "./src/registry.js")\n',
      });
    }));
});

describe("crdshift versions", () => {
  it("sorts the docs page's example list into its order", async () => {
    const docsOrder = ["v10", "v2", "v1", "v11beta2", "v10beta3", "v3beta1", "v12alpha1", "v11alpha2", "foo1", "foo10"];
    const shuffled = ["foo10", "v1", "v11alpha2", "v3beta1", "v10", "foo1", "v12alpha1", "v2", "v10beta3", "v11beta2"];
    expect((await run(["versions", ...shuffled])).stdout).toBe(`${docsOrder.join("\n")}\n`);
    expect((await run(["versions", "v1beta1", "v1"])).stdout).toBe("v1\nv1beta1\n");
  });
});
