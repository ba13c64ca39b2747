import { fileURLToPath } from "node:url";
import { App, CfnParameter, Stack } from "aws-cdk-lib";
import { Match, Template } from "aws-cdk-lib/assertions";
import { CrdshiftWebhook, type CrdshiftWebhookProps } from "crdshift/aws-cdk";
import { beforeAll, describe, expect, it } from "vitest";

// Synthesized offline: no AWS credentials, no network. Synthesis takes seconds, and tens of
// them on a loaded 2-core machine: the hook and the tests that synthesize say how long they may take.
const SYNTH_TIMEOUT_MS = 120_000;
// Any folder does as the asset: synthesis only hashes and copies it.
const bundleDir = fileURLToPath(new URL("../../fixtures/lambda-asset", import.meta.url));

function synth(
  props: Partial<CrdshiftWebhookProps> = {},
  configure?: (stack: Stack) => Partial<CrdshiftWebhookProps>,
): Template {
  const stack = new Stack(new App(), "Test");
  new CrdshiftWebhook(stack, "Webhook", { bundleDir, ...props, ...configure?.(stack) });
  return Template.fromStack(stack);
}

let template: Template;
beforeAll(() => {
  template = synth();
}, SYNTH_TIMEOUT_MS);

const fn = () => Object.values(template.findResources("AWS::Lambda::Function"))[0]!.Properties;

describe("the CrdshiftWebhook construct (crdshift/aws-cdk)", () => {
  it("runs the prebuilt bundle on nodejs22.x, arm64", () => {
    template.resourceCountIs("AWS::Lambda::Function", 1);
    template.hasResourceProperties("AWS::Lambda::Function", {
      Runtime: "nodejs22.x",
      Architectures: ["arm64"],
      Handler: "index.handler",
      MemorySize: 512,
    });
  });

  it("times out before the apiserver's fixed 30 s, and the app's budget ends before that", () => {
    const { Timeout, Environment } = fn();
    expect(Timeout).toBeLessThan(30);
    expect(Number(Environment.Variables.CRDSHIFT_BUDGET_MS)).toBeLessThan(Timeout * 1000);
  });

  it("serves a function URL with auth type NONE, buffered, and both invoke permissions", () => {
    template.hasResourceProperties("AWS::Lambda::Url", { AuthType: "NONE", InvokeMode: "BUFFERED" });
    template.hasResourceProperties("AWS::Lambda::Permission", {
      Action: "lambda:InvokeFunctionUrl",
      FunctionUrlAuthType: "NONE",
      Principal: "*",
    });
    template.hasResourceProperties("AWS::Lambda::Permission", {
      Action: "lambda:InvokeFunction",
      InvokedViaFunctionUrl: true,
    });
  });

  it("writes metrics as EMF log lines by default, so the role needs nothing beyond writing logs", () => {
    expect(fn().Environment.Variables).toMatchObject({
      CRDSHIFT_METRICS: "emf",
      CRDSHIFT_METRICS_NAMESPACE: "crdshift",
    });
    template.resourceCountIs("AWS::IAM::Policy", 0);
    template.hasResourceProperties("AWS::IAM::Role", {
      ManagedPolicyArns: [
        Match.objectLike({
          "Fn::Join": Match.arrayWith([Match.arrayWith([Match.stringLikeRegexp("AWSLambdaBasicExecutionRole")])]),
        }),
      ],
    });
  });

  it("with PutMetricData chosen, may put metrics in its own namespace only", { timeout: SYNTH_TIMEOUT_MS }, () => {
    const policies = Object.values(
      synth({ metrics: "cloudwatch", metricsNamespace: "team/crdshift" }).findResources("AWS::IAM::Policy"),
    );
    expect(policies).toHaveLength(1);
    expect(policies[0]!.Properties.PolicyDocument.Statement).toEqual([
      {
        Action: "cloudwatch:PutMetricData",
        Effect: "Allow",
        Resource: "*",
        Condition: { StringEquals: { "cloudwatch:namespace": "team/crdshift" } },
      },
    ]);
  });

  it("traces with X-Ray only when asked, and may then send the traces", { timeout: SYNTH_TIMEOUT_MS }, () => {
    expect(fn().TracingConfig).toBeUndefined();
    const traced = synth({ tracing: true });
    traced.hasResourceProperties("AWS::Lambda::Function", { TracingConfig: { Mode: "Active" } });
    traced.hasResourceProperties("AWS::IAM::Policy", {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Action: ["xray:PutTraceSegments", "xray:PutTelemetryRecords"], Effect: "Allow" }),
        ]),
      },
    });
  });

  it("keeps two weeks of logs", () => {
    template.hasResourceProperties("AWS::Logs::LogGroup", { RetentionInDays: 14 });
  });

  it("takes the path token as a NoEcho parameter, and no output reveals it", () => {
    template.hasParameter("PathToken", { Type: "String", NoEcho: true, MinLength: 16 });
    expect(fn().Environment.Variables.CRDSHIFT_TOKEN).toEqual({ Ref: "PathToken" });
    const outputs = template.findOutputs("*");
    expect(Object.keys(outputs)).toEqual(["WebhookUrlPrefix", "WebhookAliasName"]);
    expect(JSON.stringify(outputs)).not.toContain("PathToken");
    const [, parts] = outputs.WebhookUrlPrefix!.Value["Fn::Join"];
    expect(parts).toEqual([
      { "Fn::GetAtt": [expect.stringMatching(/^WebhookAliasFunctionUrl/), "FunctionUrl"] },
      "convert/",
    ]);
  });

  it(
    "takes the token from another parameter of the app instead, and refuses a literal one",
    {
      timeout: SYNTH_TIMEOUT_MS,
    },
    () => {
      const own = synth({}, (stack) => ({
        token: new CfnParameter(stack, "TeamToken", { type: "String", noEcho: true }).valueAsString,
      }));
      expect(Object.keys(own.findParameters("*")).filter((name) => !name.startsWith("BootstrapVersion"))).toEqual([
        "TeamToken",
      ]);
      expect(
        Object.values(own.findResources("AWS::Lambda::Function"))[0]!.Properties.Environment.Variables.CRDSHIFT_TOKEN,
      ).toEqual({ Ref: "TeamToken" });
      expect(() => synth({ token: "plain-text-token-0123456789" })).toThrow("token must be a CloudFormation reference");
    },
  );

  it("leaves the body and reply limits to the handler, whose defaults are the function URL's 6 MiB caps", () => {
    const vars = fn().Environment.Variables;
    expect(vars).not.toHaveProperty("CRDSHIFT_BODY_LIMIT_BYTES");
    expect(vars).not.toHaveProperty("CRDSHIFT_REPLY_LIMIT_BYTES");
  });

  it("passes more settings to the function, but not over its own", { timeout: SYNTH_TIMEOUT_MS }, () => {
    const vars = Object.values(
      synth({
        environment: { CRDSHIFT_ALLOWED_SOURCES: "10.0.0.0/8", CRDSHIFT_TOKEN: "sneaked-in-0123456789" },
      }).findResources("AWS::Lambda::Function"),
    )[0]!.Properties.Environment.Variables;
    expect(vars.CRDSHIFT_ALLOWED_SOURCES).toBe("10.0.0.0/8");
    expect(vars.CRDSHIFT_TOKEN).toEqual({ Ref: "PathToken" });
  });
});
