import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { Finding } from "../../../src/cli/doctor/finding";
import { main } from "../../../src/cli/main";

const ALIAS = "https://aliasaliasaliasaliasaliasalias12.lambda-url.eu-west-1.on.aws/convert/";
const OWN = "https://ownownownownownownownownownown12.lambda-url.eu-west-1.on.aws/convert/";
const TOKEN = "s3cret-token-0123456789";

const dir = mkdtempSync(join(tmpdir(), "crdshift-stack-outputs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A file as `cdk deploy --outputs-file` writes it. */
function cdkOutputs(outputs: Record<string, string>): string {
  const file = join(dir, `cdk-${Object.keys(outputs).join("-")}.json`);
  writeFileSync(file, JSON.stringify({ Crdshift: outputs }));
  return file;
}

function crdWithUrl(url: string) {
  const crd = parse(readFileSync(new URL("../../../examples/crds/crontabs.example.com.yaml", import.meta.url), "utf8"));
  crd.spec.conversion.webhook.clientConfig = { url };
  return crd;
}

async function doctor(url: string, outputsFile?: string) {
  let stdout = "";
  let stderr = "";
  const args = ["doctor", "-f", "-", "-o", "json", "--offline"];
  if (outputsFile) args.push("--stack-outputs", outputsFile);
  const code = await main(args, {
    out: (text) => (stdout += text),
    err: (text) => (stderr += text),
    stdin: () => JSON.stringify(crdWithUrl(url)),
  });
  const findings: Finding[] = stdout ? JSON.parse(stdout).crds.flatMap((c: { findings: Finding[] }) => c.findings) : [];
  return { code, stderr, findings: findings.filter((f) => f.code !== "stored-versions-unknown") };
}

const both = () => cdkOutputs({ WebhookUrlPrefix: ALIAS, WebhookAliasName: "live", WebhookUnversionedUrlPrefix: OWN });

describe("crdshift doctor --stack-outputs: is the CRD on the stack's alias?", () => {
  it("says so when the url is the function URL on the alias", async () => {
    const { code, findings } = await doctor(`${ALIAS}${TOKEN}`, both());
    expect(findings.map((f) => `${f.severity} ${f.code}`)).toEqual(["info url-on-alias"]);
    expect(code).toBe(0);
  });

  it("warns when the url is the function's own URL kept by keepUnversionedUrl, naming the alias's", async () => {
    const { code, findings } = await doctor(`${OWN}${TOKEN}`, both());
    expect(findings.map((f) => `${f.severity} ${f.code}`)).toEqual(["warning url-unversioned"]);
    expect(findings[0]!.message).toMatch(/no canary and no rollback/);
    expect(findings[0]!.fix).toContain(`${ALIAS}<token>`);
    expect(code).toBe(0);
  });

  it("warns when the url is a function URL the stack does not output (the one removed by the move)", async () => {
    const { findings } = await doctor(
      `${OWN}${TOKEN}`,
      cdkOutputs({ WebhookUrlPrefix: ALIAS, WebhookAliasName: "live" }),
    );
    expect(findings.map((f) => `${f.severity} ${f.code}`)).toEqual(["warning url-not-in-stack"]);
  });

  it("takes a UrlPrefix without an AliasName beside it (a crdshift 0.1 stack's) for the function's own URL", async () => {
    const { findings } = await doctor(`${OWN}${TOKEN}`, cdkOutputs({ WebhookUrlPrefix: OWN }));
    expect(findings.map((f) => `${f.severity} ${f.code}`)).toEqual(["warning url-unversioned"]);
    expect(findings[0]!.fix).toMatch(/^deploy the stack with this crdshift/);
  });

  it("says nothing of a url on another platform, nor without the stack's outputs", async () => {
    expect((await doctor(`https://crdshift.example.workers.dev/convert/${TOKEN}`, both())).findings).toEqual([]);
    expect((await doctor(`${OWN}${TOKEN}`)).findings).toEqual([]);
  });

  it("reads aws cloudformation describe-stacks' output the same way", async () => {
    const file = join(dir, "describe-stacks.json");
    const output = (key: string, value: string) => ({ OutputKey: key, OutputValue: value });
    writeFileSync(
      file,
      JSON.stringify({
        Stacks: [
          {
            Outputs: [
              output("WebhookUrlPrefix", ALIAS),
              output("WebhookAliasName", "live"),
              output("WebhookUnversionedUrlPrefix", OWN),
            ],
          },
        ],
      }),
    );
    const { findings } = await doctor(`${OWN}${TOKEN}`, file);
    expect(findings.map((f) => f.code)).toEqual(["url-unversioned"]);
    expect((await doctor(`${ALIAS}${TOKEN}`, file)).findings.map((f) => f.code)).toEqual(["url-on-alias"]);
  });

  it("refuses outputs that are not a CrdshiftWebhook stack's, or not JSON", async () => {
    const other = await doctor(`${ALIAS}${TOKEN}`, cdkOutputs({ BucketName: "b" }));
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/no output named <id>UrlPrefix/);
    const file = join(dir, "broken.json");
    writeFileSync(file, "{");
    const broken = await doctor(`${ALIAS}${TOKEN}`, file);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/not JSON/);
  });
});
