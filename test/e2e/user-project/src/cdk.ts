import { App, Stack } from "aws-cdk-lib";
import { CrdshiftWebhook } from "crdshift/aws-cdk";

// npm run synth:aws bundles src/lambda.ts into dist/lambda first.
const app = new App();
const stack = new Stack(app, "MyCrdsWebhook");
new CrdshiftWebhook(stack, "Webhook", { bundleDir: "dist/lambda" });
