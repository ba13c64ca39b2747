import { App } from "aws-cdk-lib";
import { Match, Template } from "aws-cdk-lib/assertions";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { CrdshiftStack } from "../../infra/aws/stack";

// Synthesized offline: no AWS credentials, no network.
const bundleDir = fileURLToPath(new URL("../../dist/lambda", import.meta.url));
let template: Template;
beforeAll(() => {
  template = Template.fromStack(new CrdshiftStack(new App(), "Test", { bundleDir }));
});

const fn = () => Object.values(template.findResources("AWS::Lambda::Function"))[0]!.Properties;

describe("the AWS stack", () => {
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
    template.hasResourceProperties("AWS::Lambda::Permission", { Action: "lambda:InvokeFunctionUrl", FunctionUrlAuthType: "NONE", Principal: "*" });
    template.hasResourceProperties("AWS::Lambda::Permission", { Action: "lambda:InvokeFunction", InvokedViaFunctionUrl: true });
  });

  it("writes metrics as EMF log lines by default, so the role needs nothing beyond writing logs", () => {
    expect(fn().Environment.Variables).toMatchObject({ CRDSHIFT_METRICS: "emf", CRDSHIFT_METRICS_NAMESPACE: "crdshift" });
    template.resourceCountIs("AWS::IAM::Policy", 0);
    template.hasResourceProperties("AWS::IAM::Role", {
      ManagedPolicyArns: [Match.objectLike({ "Fn::Join": Match.arrayWith([Match.arrayWith([Match.stringLikeRegexp("AWSLambdaBasicExecutionRole")])]) })],
    });
  });

  it("with PutMetricData chosen, may put metrics in its own namespace only", () => {
    const stack = new CrdshiftStack(new App(), "Cw", { bundleDir, metrics: "cloudwatch", metricsNamespace: "team/crdshift" });
    const policies = Object.values(Template.fromStack(stack).findResources("AWS::IAM::Policy"));
    expect(policies).toHaveLength(1);
    expect(policies[0]!.Properties.PolicyDocument.Statement).toEqual([
      { Action: "cloudwatch:PutMetricData", Effect: "Allow", Resource: "*", Condition: { StringEquals: { "cloudwatch:namespace": "team/crdshift" } } },
    ]);
  });

  it("keeps two weeks of logs", () => {
    template.hasResourceProperties("AWS::Logs::LogGroup", { RetentionInDays: 14 });
  });

  it("takes the path token as a NoEcho parameter, and no output reveals it", () => {
    template.hasParameter("PathToken", { Type: "String", NoEcho: true, MinLength: 16 });
    expect(fn().Environment.Variables.CRDSHIFT_TOKEN).toEqual({ Ref: "PathToken" });
    const outputs = template.findOutputs("*");
    expect(Object.keys(outputs)).toEqual(["WebhookUrlPrefix"]);
    expect(JSON.stringify(outputs)).not.toContain("PathToken");
    const [, parts] = outputs.WebhookUrlPrefix!.Value["Fn::Join"];
    expect(parts).toEqual([{ "Fn::GetAtt": [expect.stringMatching(/^WebhookFunctionUrl/), "FunctionUrl"] }, "convert/"]);
  });

  it("limits bodies and replies to the function URL's 6 MB", () => {
    const vars = fn().Environment.Variables;
    expect(Number(vars.CRDSHIFT_BODY_LIMIT_BYTES)).toBe(6 * 1024 * 1024);
    expect(Number(vars.CRDSHIFT_REPLY_LIMIT_BYTES)).toBeLessThan(6 * 1024 * 1024);
  });
});
