import { createHandler } from "crdshift/lambda";
import { registry } from "..";

// The examples on AWS Lambda behind a function URL: npm run build:lambda bundles this module.
export const handler = createHandler(registry);
