import { fileURLToPath } from "node:url";
import { App, Stack } from "aws-cdk-lib";
import { CrdshiftWebhook } from "crdshift/aws-cdk";

// `npm run synth:aws` writes the CloudFormation template to cdk.out/ without AWS credentials;
// `npm run deploy:aws` deploys it (asks for the PathToken parameter, see README). Run by the CDK
// CLI (`cdk synth --app`), it writes where the CLI says.
const root = fileURLToPath(new URL("../..", import.meta.url));
const app = new App({ outdir: process.env.CDK_OUTDIR ?? `${root}cdk.out` });
const stack = new Stack(app, "Crdshift");
const metrics = process.env.CRDSHIFT_METRICS as "emf" | "cloudwatch" | "none" | undefined;
new CrdshiftWebhook(stack, "Webhook", {
  bundleDir: `${root}build/lambda`,
  ...(metrics ? { metrics } : {}),
  ...(process.env.CRDSHIFT_METRICS_NAMESPACE ? { metricsNamespace: process.env.CRDSHIFT_METRICS_NAMESPACE } : {}),
});
const assembly = app.synth();
for (const stack of assembly.stacks) {
  console.log(JSON.stringify(stack.template, null, 2));
  console.error(`synthesized ${stack.stackName}: ${assembly.directory}/${stack.templateFile}`);
}
