import { CfnOutput, CfnParameter, Duration, Fn, RemovalPolicy, Stack, type StackProps } from "aws-cdk-lib";
import * as iam from "aws-cdk-lib/aws-iam";
import * as lambda from "aws-cdk-lib/aws-lambda";
import * as logs from "aws-cdk-lib/aws-logs";
import type { Construct } from "constructs";

export interface CrdshiftStackProps extends StackProps {
  /** Folder holding the prebuilt bundle `index.mjs` (npm run build:lambda). */
  bundleDir: string;
  /**
   * How metrics leave the function: `emf` (default) as log lines CloudWatch Logs turns into
   * metrics, no API call and no grant; `cloudwatch` through PutMetricData; or `none`.
   */
  metrics?: "emf" | "cloudwatch" | "none";
  /** CloudWatch namespace of the metrics (and the only one the function may write to). */
  metricsNamespace?: string;
  memorySize?: number;
}

/** The apiserver waits 30 s for a conversion webhook, fixed; Lambda must give up before it. */
export const LAMBDA_TIMEOUT_SECONDS = 25;
/** A function URL takes and returns 6 MB at most (BUFFERED mode). */
export const FUNCTION_URL_PAYLOAD_BYTES = 6 * 1024 * 1024;

/**
 * One Lambda function behind a function URL, serving the conversion webhook.
 * The path token is a NoEcho parameter: CloudFormation never shows it, and no output holds it.
 */
export class CrdshiftStack extends Stack {
  constructor(scope: Construct, id: string, props: CrdshiftStackProps) {
    super(scope, id, props);
    const namespace = props.metricsNamespace ?? "crdshift";
    const metrics = props.metrics ?? "emf";
    if (!["emf", "cloudwatch", "none"].includes(metrics)) throw new Error(`metrics must be emf, cloudwatch or none, got ${JSON.stringify(metrics)}`);

    const token = new CfnParameter(this, "PathToken", {
      type: "String",
      noEcho: true,
      minLength: 16,
      maxLength: 256,
      allowedPattern: "^[A-Za-z0-9_-]+$",
      description: "Secret path segment: the webhook answers at /convert/<token> only. Base64url, 16+ characters.",
    });

    const logGroup = new logs.LogGroup(this, "Logs", {
      retention: logs.RetentionDays.TWO_WEEKS,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    const fn = new lambda.Function(this, "Webhook", {
      description: "crdshift: CRD conversion webhook",
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      handler: "index.handler",
      code: lambda.Code.fromAsset(props.bundleDir),
      memorySize: props.memorySize ?? 512,
      timeout: Duration.seconds(LAMBDA_TIMEOUT_SECONDS),
      logGroup,
      environment: {
        CRDSHIFT_TOKEN: token.valueAsString,
        // Fail cleanly a second before Lambda's own timeout would kill the invocation.
        CRDSHIFT_BUDGET_MS: String((LAMBDA_TIMEOUT_SECONDS - 1) * 1000),
        CRDSHIFT_BODY_LIMIT_BYTES: String(FUNCTION_URL_PAYLOAD_BYTES),
        // The reply travels as a JSON string inside Lambda's result: leave room for its envelope.
        CRDSHIFT_REPLY_LIMIT_BYTES: String(FUNCTION_URL_PAYLOAD_BYTES - 16 * 1024),
        CRDSHIFT_METRICS: metrics,
        CRDSHIFT_METRICS_NAMESPACE: namespace,
      },
    });

    if (metrics === "cloudwatch") {
      fn.addToRolePolicy(
        new iam.PolicyStatement({
          actions: ["cloudwatch:PutMetricData"],
          resources: ["*"], // PutMetricData has no resource type; the condition scopes it
          conditions: { StringEquals: { "cloudwatch:namespace": namespace } },
        }),
      );
    }

    // The apiserver cannot sign requests (no SigV4, no client certificate): auth type NONE,
    // and the path token is the credential.
    const url = fn.addFunctionUrl({ authType: lambda.FunctionUrlAuthType.NONE, invokeMode: lambda.InvokeMode.BUFFERED });

    new CfnOutput(this, "WebhookUrlPrefix", {
      description: "Put <prefix><token> in spec.conversion.webhook.clientConfig.url",
      value: Fn.join("", [url.url, "convert/"]),
    });
  }
}
