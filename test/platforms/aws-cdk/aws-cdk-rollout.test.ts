import { fileURLToPath } from "node:url";
import { App, Duration, Stack } from "aws-cdk-lib";
import { Annotations, Match, Template } from "aws-cdk-lib/assertions";
import { LambdaDeploymentConfig } from "aws-cdk-lib/aws-codedeploy";
import * as sns from "aws-cdk-lib/aws-sns";
import { CrdshiftWebhook, type CrdshiftWebhookProps } from "crdshift/aws-cdk";
import { beforeAll, describe, expect, it } from "vitest";

// Synthesized offline, a few stacks up front: synthesis takes seconds on a loaded machine.
const SYNTH_TIMEOUT_MS = 240_000;
const bundleDir = fileURLToPath(new URL("../../fixtures/lambda-asset", import.meta.url));

function synth(props: Partial<CrdshiftWebhookProps> = {}): { template: Template; stack: Stack } {
  const stack = new Stack(new App(), "Test");
  new CrdshiftWebhook(stack, "Webhook", { bundleDir, ...props });
  return { template: Template.fromStack(stack), stack };
}

type Resource = { Properties: Record<string, any>; UpdatePolicy?: Record<string, any> };
const resources = (template: Template, type: string) =>
  Object.entries(template.findResources(type)) as [string, Resource][];
/** The alarm the construct names `name` (its logical id starts with `WebhookAlarms<Name>`). */
function alarm(template: Template, name: string): Resource & { id: string } {
  const prefix = `WebhookAlarms${name[0]!.toUpperCase()}${name.slice(1)}`;
  const found = resources(template, "AWS::CloudWatch::Alarm").filter(([id]) =>
    new RegExp(`^${prefix}[0-9A-F]{8}$`).test(id),
  );
  expect(found, name).toHaveLength(1);
  return { id: found[0]![0], ...found[0]![1] };
}

/** Lambda's dimensions of an alias: the function, and `function:alias` as the resource. */
const aliasDimensions = (template: Template) => {
  const [fn] = resources(template, "AWS::Lambda::Function")[0]!;
  return [
    { Name: "FunctionName", Value: { Ref: fn } },
    { Name: "Resource", Value: { "Fn::Join": ["", [{ Ref: fn }, ":live"]] } },
  ];
};

// name: namespace, metric, statistic, threshold, evaluation periods, datapoints to alarm.
const ALARMS = {
  failedReviews: ["crdshift", "ConversionFailures", "Sum", 1, 1, 1],
  slowReviews: ["crdshift", "ReviewLatency", "p99", 58, 5, 3],
  reviewsNearTimeout: ["crdshift", "ReviewLatency", "p99", 15_000, 1, 1],
  lambdaErrors: ["AWS/Lambda", "Errors", "Sum", 1, 1, 1],
  lambdaThrottles: ["AWS/Lambda", "Throttles", "Sum", 1, 1, 1],
  url4xx: ["AWS/Lambda", "Url4xxCount", "Sum", 1, 1, 1],
  url5xx: ["AWS/Lambda", "Url5xxCount", "Sum", 1, 1, 1],
  shadowDifferences: ["crdshift", "ShadowDifferences", "Sum", 1, 1, 1],
  shadowFailures: ["crdshift", "ShadowFailures", "Sum", 1, 1, 1],
} as const;
const ROLLBACK = ["failedReviews", "failedReviewRate", "reviewsNearTimeout", "lambdaErrors", "url4xx", "url5xx"];

let plain: Template;
let canary: { template: Template; stack: Stack };
beforeAll(() => {
  plain = synth().template;
  canary = synth({
    deploymentConfig: LambdaDeploymentConfig.CANARY_10PERCENT_5MINUTES,
    alarmTopic: true,
    keepUnversionedUrl: true,
  });
}, SYNTH_TIMEOUT_MS);

describe("CrdshiftWebhook: versions behind an alias", () => {
  it("publishes a version and serves the function URL from the alias `live` pointing at it", () => {
    plain.resourceCountIs("AWS::Lambda::Version", 1);
    const [versionId] = resources(plain, "AWS::Lambda::Version")[0]!;
    const [aliasId, alias] = resources(plain, "AWS::Lambda::Alias")[0]!;
    expect(alias.Properties).toMatchObject({ Name: "live", FunctionVersion: { "Fn::GetAtt": [versionId, "Version"] } });
    const urls = resources(plain, "AWS::Lambda::Url");
    expect(urls).toHaveLength(1);
    const [urlId, url] = urls[0]!;
    expect(url.Properties).toMatchObject({ Qualifier: "live", AuthType: "NONE", InvokeMode: "BUFFERED" });
    expect(plain.findOutputs("*").WebhookAliasName!.Value).toBe("live");
    expect(plain.findOutputs("*").WebhookUrlPrefix!.Value).toEqual({
      "Fn::Join": ["", [{ "Fn::GetAtt": [urlId, "FunctionUrl"] }, "convert/"]],
    });
    // Both invoke permissions are the alias's, or its URL would answer 403.
    for (const action of ["lambda:InvokeFunctionUrl", "lambda:InvokeFunction"])
      plain.hasResourceProperties("AWS::Lambda::Permission", { Action: action, FunctionName: { Ref: aliasId } });
    plain.resourceCountIs("AWS::CodeDeploy::DeploymentGroup", 0);
    expect(plain.findResources("AWS::Lambda::Alias")[aliasId]!.UpdatePolicy).toBeUndefined();
  });

  it("keeps, when asked, the function's own URL under the logical id crdshift 0.1 gave it, so its address stays", () => {
    const urls = resources(canary.template, "AWS::Lambda::Url");
    expect(urls.map(([id, url]) => [id, url.Properties.Qualifier])).toEqual([
      ["WebhookFunctionFunctionUrlEC8AE923", undefined],
      [expect.stringMatching(/^WebhookAliasFunctionUrl/), "live"],
    ]);
    expect(Object.keys(canary.template.findOutputs("*")).sort()).toEqual([
      "WebhookAliasName",
      "WebhookUnversionedUrlPrefix",
      "WebhookUrlPrefix",
    ]);
  });

  it(
    "takes another alias name",
    () => {
      const { template } = synth({ aliasName: "serving", alarms: false, dashboard: false });
      template.hasResourceProperties("AWS::Lambda::Alias", { Name: "serving" });
      template.hasResourceProperties("AWS::Lambda::Url", { Qualifier: "serving" });
    },
    SYNTH_TIMEOUT_MS,
  );
});

describe("CrdshiftWebhook: alarms", () => {
  it.each(Object.entries(ALARMS))(
    "%s watches its metric with its threshold",
    (name, [namespace, metric, statistic, threshold, periods, datapoints]) => {
      const { Properties } = alarm(plain, name);
      expect(Properties).toMatchObject({
        Namespace: namespace,
        MetricName: metric,
        Threshold: threshold,
        EvaluationPeriods: periods,
        DatapointsToAlarm: datapoints,
        Period: 60,
        ComparisonOperator: "GreaterThanOrEqualToThreshold",
        TreatMissingData: "notBreaching",
      });
      expect(Properties.Statistic ?? Properties.ExtendedStatistic).toBe(statistic);
      if (namespace === "crdshift") expect(Properties.Dimensions).toBeUndefined();
      else expect(Properties.Dimensions).toEqual(aliasDimensions(plain));
    },
  );

  it("failedReviewRate divides failures by reviews, both crdshift's overall series, in percent", () => {
    const { Properties } = alarm(plain, "failedReviewRate");
    expect(Properties.Threshold).toBe(1);
    const [expression, ...inputs] = Properties.Metrics;
    expect(expression).toMatchObject({ Expression: "100 * FILL(failures, 0) / reviews", ReturnData: true });
    expect(inputs).toEqual([
      expect.objectContaining({
        Id: "failures",
        MetricStat: { Metric: { Namespace: "crdshift", MetricName: "ConversionFailures" }, Period: 60, Stat: "Sum" },
      }),
      expect.objectContaining({
        Id: "reviews",
        MetricStat: { Metric: { Namespace: "crdshift", MetricName: "ReviewLatency" }, Period: 60, Stat: "SampleCount" },
      }),
    ]);
  });

  it(
    "are tuned, turned off one by one, or all off",
    () => {
      const { template } = synth({
        alarms: {
          slowReviews: { threshold: 200, evaluationPeriods: 10, datapointsToAlarm: 5 },
          shadowDifferences: false,
          period: Duration.minutes(5),
        },
        dashboard: false,
      });
      expect(alarm(template, "slowReviews").Properties).toMatchObject({
        Threshold: 200,
        EvaluationPeriods: 10,
        DatapointsToAlarm: 5,
        Period: 300,
      });
      template.resourceCountIs("AWS::CloudWatch::Alarm", 9);
      expect(() => synth({ alarms: { url5xx: { evaluationPeriods: 2, datapointsToAlarm: 3 } } })).toThrow(
        "alarms.url5xx: datapointsToAlarm (3) is more than evaluationPeriods (2)",
      );
      const fewer = synth({ alarms: { slowReviews: { evaluationPeriods: 2 } }, dashboard: false }).template;
      expect(alarm(fewer, "slowReviews").Properties).toMatchObject({ EvaluationPeriods: 2, DatapointsToAlarm: 2 });
      const none = synth({ alarms: false, dashboard: false }).template;
      none.resourceCountIs("AWS::CloudWatch::Alarm", 0);
    },
    SYNTH_TIMEOUT_MS,
  );

  it("notify a topic the construct makes, on alarm and on OK", () => {
    const [topicId] = resources(canary.template, "AWS::SNS::Topic")[0]!;
    const alarms = resources(canary.template, "AWS::CloudWatch::Alarm");
    expect(alarms).toHaveLength(10);
    for (const [, { Properties }] of alarms) {
      expect(Properties.AlarmActions).toEqual([{ Ref: topicId }]);
      expect(Properties.OKActions).toEqual([{ Ref: topicId }]);
    }
    plain.resourceCountIs("AWS::SNS::Topic", 0);
    for (const [, { Properties }] of resources(plain, "AWS::CloudWatch::Alarm"))
      expect(Properties.AlarmActions).toBeUndefined();
  });

  it(
    "or a topic of yours",
    () => {
      const arn = "arn:aws:sns:eu-west-1:123456789012:oncall";
      const stack = new Stack(new App(), "Test");
      new CrdshiftWebhook(stack, "Webhook", {
        bundleDir,
        alarmTopic: sns.Topic.fromTopicArn(stack, "Oncall", arn),
        dashboard: false,
      });
      const template = Template.fromStack(stack);
      template.resourceCountIs("AWS::SNS::Topic", 0);
      expect(alarm(template, "url5xx").Properties.AlarmActions).toEqual([arn]);
    },
    SYNTH_TIMEOUT_MS,
  );
});

describe("CrdshiftWebhook: canary deployments", () => {
  it("shift the alias with CodeDeploy and roll back on the rollback alarms", () => {
    const { template } = canary;
    const [groupId, group] = resources(template, "AWS::CodeDeploy::DeploymentGroup")[0]!;
    expect(group.Properties).toMatchObject({
      DeploymentConfigName: "CodeDeployDefault.LambdaCanary10Percent5Minutes",
      AutoRollbackConfiguration: { Enabled: true, Events: expect.arrayContaining(["DEPLOYMENT_STOP_ON_ALARM"]) },
      AlarmConfiguration: { Enabled: true },
    });
    const wired = group.Properties.AlarmConfiguration.Alarms.map((a: { Name: { Ref: string } }) => a.Name.Ref);
    expect(wired.sort()).toEqual(ROLLBACK.map((name) => alarm(template, name).id).sort());
    const [, alias] = resources(template, "AWS::Lambda::Alias")[0]!;
    expect(alias.UpdatePolicy).toEqual({
      CodeDeployLambdaAliasUpdate: { ApplicationName: expect.anything(), DeploymentGroupName: { Ref: groupId } },
    });
  });

  it(
    "roll back on the alarms you choose, and warn when none is left",
    () => {
      const { template } = synth({
        deploymentConfig: LambdaDeploymentConfig.LINEAR_10PERCENT_EVERY_1MINUTE,
        alarms: { lambdaThrottles: { rollback: true }, url4xx: { rollback: false }, failedReviewRate: false },
        dashboard: false,
      });
      const [, group] = resources(template, "AWS::CodeDeploy::DeploymentGroup")[0]!;
      expect(group.Properties.DeploymentConfigName).toBe("CodeDeployDefault.LambdaLinear10PercentEvery1Minute");
      const wired = group.Properties.AlarmConfiguration.Alarms.map((a: { Name: { Ref: string } }) => a.Name.Ref);
      const expected = ["failedReviews", "reviewsNearTimeout", "lambdaErrors", "lambdaThrottles", "url5xx"];
      expect(wired.sort()).toEqual(expected.map((name) => alarm(template, name).id).sort());

      const bare = synth({ deploymentConfig: LambdaDeploymentConfig.ALL_AT_ONCE, alarms: false, dashboard: false });
      Annotations.fromStack(bare.stack).hasWarning("*", Match.stringLikeRegexp("no alarm rolls back"));
    },
    SYNTH_TIMEOUT_MS,
  );
});
