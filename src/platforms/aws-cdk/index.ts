/** crdshift/aws-cdk: the CDK construct that deploys the Lambda function URL, alias, canary and alarms. */
export * from "./aws-cdk";
