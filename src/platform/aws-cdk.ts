import { CfnOutput, CfnParameter, Duration, Fn, RemovalPolicy, Stack, Token } from "aws-cdk-lib";
import * as iam from "aws-cdk-lib/aws-iam";
import * as lambda from "aws-cdk-lib/aws-lambda";
import * as logs from "aws-cdk-lib/aws-logs";
import { Construct } from "constructs";
import { LAMBDA_TIMEOUT_SECONDS } from "./function-url-limits";

export interface CrdshiftWebhookProps {
  /**
   * Folder holding your bundled handler, e.g. `dist/lambda` with the `index.mjs` esbuild wrote
   * from a module exporting `handler = createHandler(registry)` (crdshift/lambda).
   */
  bundleDir: string;
  /** The handler in that folder, as `file.export`. Default: `index.handler`. */
  handler?: string;
  /**
   * The path token, as a CloudFormation reference (another parameter's `valueAsString`, say).
   * Default: a `NoEcho` parameter of the stack named `tokenParameterName`. A literal string is
   * refused: the template would show it.
   */
  token?: string;
  /** Name of the token parameter the construct adds to the stack. Default: `PathToken`. */
  tokenParameterName?: string;
  /**
   * How metrics leave the function: `emf` (default) as log lines CloudWatch Logs turns into
   * metrics, no API call and no grant; `cloudwatch` through PutMetricData; or `none`.
   */
  metrics?: "emf" | "cloudwatch" | "none";
  /** CloudWatch namespace of the metrics (and the only one the function may write to). Default: `crdshift`. */
  metricsNamespace?: string;
  /** Default: 512. */
  memorySize?: number;
  /** How long logs are kept. Default: two weeks. */
  logRetention?: logs.RetentionDays;
  /** More `CRDSHIFT_*` settings for the function, e.g. `CRDSHIFT_ALLOWED_SOURCES`. */
  environment?: Record<string, string>;
}

/**
 * One Lambda function behind a function URL, serving the conversion webhook: Node.js 22 on
 * arm64, a timeout under the apiserver's 30 s, auth type NONE (the apiserver cannot sign
 * requests: the path token is the credential), BUFFERED, logs kept two weeks. The stack gets an
 * output `<id>UrlPrefix`: append the token and put the result in each CRD.
 *
 * @example
 * const stack = new Stack(app, "Crdshift");
 * new CrdshiftWebhook(stack, "Webhook", { bundleDir: "dist/lambda" });
 */
export class CrdshiftWebhook extends Construct {
  readonly function: lambda.Function;
  readonly functionUrl: lambda.FunctionUrl;
  /** `https://<id>.lambda-url.<region>.on.aws/convert/`: the webhook URL without its token. */
  readonly urlPrefix: string;

  constructor(scope: Construct, id: string, props: CrdshiftWebhookProps) {
    super(scope, id);
    const namespace = props.metricsNamespace ?? "crdshift";
    const metrics = props.metrics ?? "emf";
    if (!["emf", "cloudwatch", "none"].includes(metrics))
      throw new Error(`metrics must be emf, cloudwatch or none, got ${JSON.stringify(metrics)}`);
    if (props.token !== undefined && !Token.isUnresolved(props.token)) {
      throw new Error(
        "token must be a CloudFormation reference (a NoEcho parameter's valueAsString), not a literal: the template would show it",
      );
    }
    const token = props.token ?? tokenParameter(Stack.of(this), props.tokenParameterName ?? "PathToken").valueAsString;

    const logGroup = new logs.LogGroup(this, "Logs", {
      retention: props.logRetention ?? logs.RetentionDays.TWO_WEEKS,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    this.function = new lambda.Function(this, "Function", {
      description: "crdshift: CRD conversion webhook",
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      handler: props.handler ?? "index.handler",
      code: lambda.Code.fromAsset(props.bundleDir),
      memorySize: props.memorySize ?? 512,
      timeout: Duration.seconds(LAMBDA_TIMEOUT_SECONDS),
      logGroup,
      environment: {
        ...props.environment,
        CRDSHIFT_TOKEN: token,
        // Fail cleanly a second before Lambda's own timeout would kill the invocation.
        CRDSHIFT_BUDGET_MS: String((LAMBDA_TIMEOUT_SECONDS - 1) * 1000),
        CRDSHIFT_METRICS: metrics,
        CRDSHIFT_METRICS_NAMESPACE: namespace,
      },
    });

    if (metrics === "cloudwatch") {
      this.function.addToRolePolicy(
        new iam.PolicyStatement({
          actions: ["cloudwatch:PutMetricData"],
          resources: ["*"], // PutMetricData has no resource type; the condition scopes it
          conditions: { StringEquals: { "cloudwatch:namespace": namespace } },
        }),
      );
    }

    this.functionUrl = this.function.addFunctionUrl({
      authType: lambda.FunctionUrlAuthType.NONE,
      invokeMode: lambda.InvokeMode.BUFFERED,
    });
    this.urlPrefix = Fn.join("", [this.functionUrl.url, "convert/"]);
    const output = new CfnOutput(this, "UrlPrefix", {
      description: "Put <prefix><token> in spec.conversion.webhook.clientConfig.url",
      value: this.urlPrefix,
    });
    output.overrideLogicalId(`${id.replace(/[^A-Za-z0-9]/g, "")}UrlPrefix`);
  }
}

/** The path token as a NoEcho parameter: CloudFormation never shows it, and no output holds it. */
function tokenParameter(stack: Stack, name: string): CfnParameter {
  return new CfnParameter(stack, name, {
    type: "String",
    noEcho: true,
    minLength: 16,
    maxLength: 256,
    allowedPattern: "^[A-Za-z0-9_-]+$",
    description: "Secret path segment: the webhook answers at /convert/<token> only. Base64url, 16+ characters.",
  });
}
