import { Annotations, CfnOutput, CfnParameter, Duration, Fn, RemovalPolicy, Stack, Token } from "aws-cdk-lib";
import * as codedeploy from "aws-cdk-lib/aws-codedeploy";
import * as iam from "aws-cdk-lib/aws-iam";
import * as lambda from "aws-cdk-lib/aws-lambda";
import * as logs from "aws-cdk-lib/aws-logs";
import type * as cloudwatch from "aws-cdk-lib/aws-cloudwatch";
import type * as sns from "aws-cdk-lib/aws-sns";
import { Construct } from "constructs";
import {
  type CrdshiftAlarms,
  type CrdshiftAlarmsOptions,
  createAlarms,
  latencyThresholds,
  notify,
} from "./aws-cdk-alarms";
import { createDashboard } from "./aws-cdk-dashboard";
import { LAMBDA_TIMEOUT_SECONDS } from "../lambda";

export type { AlarmTuning, CrdshiftAlarmName, CrdshiftAlarms, CrdshiftAlarmsOptions } from "./aws-cdk-alarms";

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
  /**
   * X-Ray active tracing: Lambda records sampled invocations as traces (and the role may send
   * them), whose ids the review log lines carry as `xrayTraceId`. Without it the lines still
   * carry an id, one X-Ray records no trace under. X-Ray bills traces recorded. Default: false.
   */
  tracing?: boolean;
  /** How long logs are kept. Default: two weeks. */
  logRetention?: logs.RetentionDays;
  /** More `CRDSHIFT_*` settings for the function, e.g. `CRDSHIFT_ALLOWED_SOURCES`. */
  environment?: Record<string, string>;
  /** The alias the function URL serves, pointing at the newest published version. Default: `live`. */
  aliasName?: string;
  /**
   * How CodeDeploy moves the alias to a new version, e.g.
   * `LambdaDeploymentConfig.CANARY_10PERCENT_5MINUTES` or `LINEAR_10PERCENT_EVERY_1MINUTE`
   * (aws-cdk-lib/aws-codedeploy), rolling back when a rollback alarm fires. Default: none, the
   * alias moves at once.
   */
  deploymentConfig?: codedeploy.ILambdaDeploymentConfig;
  /** Tune or turn off each alarm; `false` makes none. Default: all on (see `CrdshiftAlarmsOptions`). */
  alarms?: CrdshiftAlarmsOptions | false;
  /** Where alarms notify (alarm and OK): a topic of yours, or `true` for a new one. Default: nowhere. */
  alarmTopic?: sns.ITopic | boolean;
  /** One CloudWatch dashboard of the webhook's metrics and alarms. Default: true. */
  dashboard?: boolean;
  /** The dashboard's name. Default: one CloudFormation makes up. */
  dashboardName?: string;
  /**
   * Also keep the function URL on the function itself, as crdshift 0.1 made it, so CRDs still
   * pointing at it keep working while you move them to the alias's URL (`<id>UrlPrefix`). It
   * serves the function's latest code, around the alias, any canary and its rollback. Output
   * `<id>UnversionedUrlPrefix`. Default: false.
   */
  keepUnversionedUrl?: boolean;
}

/**
 * One Lambda function serving the conversion webhook from a function URL on an alias: Node.js 22
 * on arm64, a timeout under the apiserver's 30 s, auth type NONE (the apiserver cannot sign
 * requests: the path token is the credential), BUFFERED, logs kept two weeks. Each change of the
 * function publishes a version and moves the alias to it, at once or as `deploymentConfig` says;
 * alarms and a dashboard watch it. The stack gets an output `<id>UrlPrefix`: append the token and
 * put the result in each CRD.
 *
 * A version keeps the environment it was published with, and a deploy that changes only the
 * token parameter's value changes nothing CDK sees, so it publishes no version: change the token
 * together with the template (the README's rotation does, through `CRDSHIFT_TOKEN_NEXT`).
 *
 * @example
 * const stack = new Stack(app, "Crdshift");
 * new CrdshiftWebhook(stack, "Webhook", { bundleDir: "dist/lambda" });
 */
export class CrdshiftWebhook extends Construct {
  readonly function: lambda.Function;
  /** The version the alias is moved to by this deploy. */
  readonly version: lambda.IVersion;
  readonly alias: lambda.Alias;
  /** The function URL on the alias. */
  readonly functionUrl: lambda.FunctionUrl;
  /** With `keepUnversionedUrl`, the function URL on the function itself. */
  readonly unversionedUrl?: lambda.FunctionUrl;
  /** `https://<id>.lambda-url.<region>.on.aws/convert/`: the webhook URL without its token. */
  readonly urlPrefix: string;
  readonly alarms: CrdshiftAlarms;
  readonly alarmTopic?: sns.ITopic;
  readonly deploymentGroup?: codedeploy.LambdaDeploymentGroup;
  readonly dashboard?: cloudwatch.Dashboard;

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
      ...(props.tracing ? { tracing: lambda.Tracing.ACTIVE } : {}),
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

    // A version per change of the function; the URL serves the alias, so a bad version can be
    // moved away from (by CodeDeploy's rollback, or by pointing the alias back) without touching CRDs.
    this.version = this.function.currentVersion;
    this.alias = new lambda.Alias(this, "Alias", { aliasName: props.aliasName ?? "live", version: this.version });
    const urlOptions = { authType: lambda.FunctionUrlAuthType.NONE, invokeMode: lambda.InvokeMode.BUFFERED };
    this.functionUrl = this.alias.addFunctionUrl(urlOptions);
    this.urlPrefix = Fn.join("", [this.functionUrl.url, "convert/"]);
    new CfnOutput(this, "UrlPrefix", {
      description: "Put <prefix><token> in spec.conversion.webhook.clientConfig.url",
      value: this.urlPrefix,
    }).overrideLogicalId(outputId(id, "UrlPrefix"));
    // Says the UrlPrefix beside it is an alias's: crdshift doctor --stack-outputs reads it, since
    // a 0.1 stack's UrlPrefix was the function's own URL, and the address alone cannot tell.
    new CfnOutput(this, "AliasName", {
      description: "The alias UrlPrefix serves",
      value: this.alias.aliasName,
    }).overrideLogicalId(outputId(id, "AliasName"));
    if (props.keepUnversionedUrl) {
      // The construct path crdshift 0.1 gave it, so its logical id, and with it the URL, stay.
      this.unversionedUrl = this.function.addFunctionUrl(urlOptions);
      new CfnOutput(this, "UnversionedUrlPrefix", {
        description: "The function's own URL: latest code, no alias, no canary. Move CRDs to UrlPrefix.",
        value: Fn.join("", [this.unversionedUrl.url, "convert/"]),
      }).overrideLogicalId(outputId(id, "UnversionedUrlPrefix"));
    }

    const alarmOptions = props.alarms === false ? undefined : (props.alarms ?? {});
    const period = alarmOptions?.period ?? Duration.minutes(1);
    const ownMetrics = metrics !== "none";
    if (!ownMetrics && alarmOptions)
      Annotations.of(this).addWarningV2(
        "crdshift:alarms-without-metrics",
        "metrics is \"none\": no alarm watches failed reviews, their latency or shadow differences, only Lambda's and the function URL's metrics",
      );
    this.alarms = alarmOptions
      ? createAlarms(this, this.alias, namespace, alarmOptions, ownMetrics)
      : { all: {}, rollback: [] };
    const topic = notify(this, this.alarms, props.alarmTopic ?? false);
    if (topic) this.alarmTopic = topic;

    if (props.deploymentConfig) {
      if (this.alarms.rollback.length === 0)
        Annotations.of(this).addWarningV2(
          "crdshift:canary-without-alarms",
          "deploymentConfig is set but no alarm rolls back: a bad version is rolled back only if the deployment fails or is stopped",
        );
      this.deploymentGroup = new codedeploy.LambdaDeploymentGroup(this, "Deployment", {
        alias: this.alias,
        deploymentConfig: props.deploymentConfig,
        alarms: this.alarms.rollback,
        autoRollback: {
          failedDeployment: true,
          stoppedDeployment: true,
          deploymentInAlarm: this.alarms.rollback.length > 0,
        },
      });
    }

    if (props.dashboard ?? true) {
      this.dashboard = createDashboard(this, {
        alias: this.alias,
        namespace,
        period,
        alarms: Object.values(this.alarms.all),
        ownMetrics,
        ...latencyThresholds(alarmOptions ?? false),
        ...(props.dashboardName ? { dashboardName: props.dashboardName } : {}),
      });
    }
  }
}

/** The construct's id without punctuation, then what the output is: ids users look for. */
function outputId(id: string, what: string): string {
  return `${id.replace(/[^A-Za-z0-9]/g, "")}${what}`;
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
