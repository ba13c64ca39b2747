import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offlineEnv, run } from "./run";

/**
 * `npm run deploy:aws` hands the assembly `npm run synth:aws` writes to the CDK CLI
 * (`cdk deploy --app cdk.out`), and the CLI refuses assemblies of a newer schema than it knows,
 * which moves with aws-cdk-lib. Here the pinned CLI runs this repository's CDK app and reads
 * what it wrote, offline and without credentials.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const CDK = join(root, "node_modules/aws-cdk/bin/cdk");
const APP = join(root, "build/cdk-cli-test/app.mjs");
let dir: string;
type Resource = { Type: string; Properties: Record<string, any>; UpdatePolicy?: any };
let env: Record<string, string>;

beforeAll(async () => {
  if (!existsSync(join(root, "build/lambda/index.mjs")))
    throw new Error("build/lambda/index.mjs is missing: run `npm run build:lambda` (npm test does)");
  dir = mkdtempSync(join(tmpdir(), "crdshift-cdk-"));
  mkdirSync(join(dir, "home"));
  env = offlineEnv({ HOME: join(dir, "home") });
  // As synth:aws bundles it, beside its bundle (the app imports aws-cdk-lib from node_modules).
  await build({
    absWorkingDir: root,
    entryPoints: ["infra/aws-cdk.ts"],
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    packages: "external",
    outfile: APP,
    logLevel: "warning",
  });
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the CDK CLI (aws-cdk) and this repository's CDK app", () => {
  it("cdk synth runs the app and reads the assembly aws-cdk-lib wrote", async () => {
    const out = join(dir, "cdk.out");
    const result = await run(
      process.execPath,
      [CDK, "synth", "--app", `node ${APP}`, "--output", out, "--quiet", "--no-notices"],
      { cwd: root, env: { ...env, CRDSHIFT_ALARM_EMAIL: "oncall@example.com" } },
    );
    expect(result.stderr).not.toMatch(/schema version mismatch/i);
    const template: { Outputs: object; Resources: Record<string, Resource> } = JSON.parse(
      readFileSync(join(out, "Crdshift.template.json"), "utf8"),
    );
    expect(Object.keys(template.Outputs)).toEqual(["WebhookUrlPrefix", "WebhookAliasName"]);
    const of = (type: string) => Object.entries(template.Resources).filter(([, resource]) => resource.Type === type);

    // The function URL serves the alias, which CodeDeploy moves in a canary that alarms roll back.
    const [[aliasId, alias]] = of("AWS::Lambda::Alias") as [[string, Resource]];
    const [[versionId]] = of("AWS::Lambda::Version") as [[string, Resource]];
    expect(alias.Properties).toMatchObject({ Name: "live", FunctionVersion: { "Fn::GetAtt": [versionId, "Version"] } });
    expect(of("AWS::Lambda::Url").map(([, url]) => url.Properties.Qualifier)).toEqual(["live"]);
    const [[groupId, group]] = of("AWS::CodeDeploy::DeploymentGroup") as [[string, Resource]];
    expect(group.Properties.DeploymentConfigName).toBe("CodeDeployDefault.LambdaCanary10Percent5Minutes");
    expect(alias.UpdatePolicy.CodeDeployLambdaAliasUpdate.DeploymentGroupName).toEqual({ Ref: groupId });
    const alarms = of("AWS::CloudWatch::Alarm");
    const rollback = group.Properties.AlarmConfiguration.Alarms.map((a: { Name: { Ref: string } }) => a.Name.Ref);
    expect(rollback.length).toBeGreaterThan(0);
    for (const id of rollback) expect(alarms.map(([alarmId]) => alarmId)).toContain(id);

    // Every alarm tells the topic the e-mail address subscribes to; one dashboard.
    const [[topicId]] = of("AWS::SNS::Topic") as [[string, Resource]];
    expect(of("AWS::SNS::Subscription")[0]![1].Properties).toMatchObject({
      Protocol: "email",
      Endpoint: "oncall@example.com",
      TopicArn: { Ref: topicId },
    });
    expect(alarms.length).toBeGreaterThanOrEqual(10);
    for (const [, { Properties }] of alarms) expect(Properties.AlarmActions).toEqual([{ Ref: topicId }]);
    expect(of("AWS::CloudWatch::Dashboard")).toHaveLength(1);
    expect(aliasId).toMatch(/^WebhookAlias/);
  });

  it("cdk ls lists the stack from that assembly, as cdk deploy --app cdk.out reads it", async () => {
    const { stdout } = await run(process.execPath, [CDK, "ls", "--app", join(dir, "cdk.out"), "--no-notices"], {
      cwd: root,
      env,
    });
    expect(stdout.trim()).toBe("Crdshift");
  });
});
