import { fileURLToPath } from "node:url";
import { App, Stack } from "aws-cdk-lib";
import { LambdaDeploymentConfig } from "aws-cdk-lib/aws-codedeploy";
import * as sns from "aws-cdk-lib/aws-sns";
import { EmailSubscription } from "aws-cdk-lib/aws-sns-subscriptions";
import { CrdshiftWebhook } from "crdshift/aws-cdk";

// This repository's own AWS deployment of the examples' webhook. `npm run synth:aws` writes the
// CloudFormation template to cdk.out/ without AWS credentials; `npm run deploy:aws` deploys it
// (asks for the PathToken parameter, see README). Run by the CDK CLI (`cdk synth --app`), it
// writes where the CLI says. A new version takes 10 % of the traffic for 5 minutes and rolls
// back if an alarm fires; CRDSHIFT_ALARM_EMAIL, when set, is told of every alarm.
const root = fileURLToPath(new URL("../..", import.meta.url));
const app = new App({ outdir: process.env.CDK_OUTDIR ?? `${root}cdk.out` });
const stack = new Stack(app, "Crdshift");
const metrics = process.env.CRDSHIFT_METRICS as "emf" | "cloudwatch" | "none" | undefined;
let topic: sns.Topic | undefined;
if (process.env.CRDSHIFT_ALARM_EMAIL) {
  topic = new sns.Topic(stack, "Alarms", { displayName: "crdshift webhook alarms" });
  topic.addSubscription(new EmailSubscription(process.env.CRDSHIFT_ALARM_EMAIL));
}
new CrdshiftWebhook(stack, "Webhook", {
  bundleDir: `${root}build/lambda`,
  deploymentConfig: LambdaDeploymentConfig.CANARY_10PERCENT_5MINUTES,
  ...(topic ? { alarmTopic: topic } : {}),
  ...(metrics ? { metrics } : {}),
  ...(process.env.CRDSHIFT_METRICS_NAMESPACE ? { metricsNamespace: process.env.CRDSHIFT_METRICS_NAMESPACE } : {}),
});
const assembly = app.synth();
for (const stack of assembly.stacks) {
  console.log(JSON.stringify(stack.template, null, 2));
  console.error(`synthesized ${stack.stackName}: ${assembly.directory}/${stack.templateFile}`);
}
