import { App } from "aws-cdk-lib";
import { fileURLToPath } from "node:url";
import { CrdshiftStack } from "./stack";

// `npm run synth:aws` writes the CloudFormation template to cdk.out/ without AWS credentials;
// `npm run deploy:aws` deploys it (asks for the PathToken parameter, see README).
const root = fileURLToPath(new URL("../..", import.meta.url));
const app = new App({ outdir: `${root}/cdk.out` });
new CrdshiftStack(app, "Crdshift", {
  bundleDir: `${root}/dist/lambda`,
  ...(process.env.CRDSHIFT_METRICS_NAMESPACE ? { metricsNamespace: process.env.CRDSHIFT_METRICS_NAMESPACE } : {}),
  ...(process.env.CRDSHIFT_METRICS ? { metrics: process.env.CRDSHIFT_METRICS as "emf" | "cloudwatch" | "none" } : {}),
});
const assembly = app.synth();
for (const stack of assembly.stacks) {
  console.log(JSON.stringify(stack.template, null, 2));
  console.error(`synthesized ${stack.stackName}: ${assembly.directory}/${stack.templateFile}`);
}
