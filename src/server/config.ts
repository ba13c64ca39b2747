import type { MetricsConfig, MetricsSink } from "../metrics";
import { HELD_PER_CHAR, heldAtLeast } from "../conversion";
import { type CallerNetworkMatcher, parseCallerNetworks } from "./caller-networks";

/**
 * The one typed configuration, read from whatever a platform calls its environment
 * (`process.env` on Node and Lambda, the Worker's `env` bindings). Bad values fail at start
 * with a message that never repeats a secret.
 */
export interface Config {
  /**
   * Accepted path tokens: the webhook answers at `/convert/<token>` for each of them, and not
   * at `/convert`. Two during a rotation (current and next). None: it answers at `/convert`.
   */
  tokens: readonly string[];
  /** Largest request body accepted, in bytes; larger ones get 413. */
  bodyLimitBytes: number;
  /**
   * Most memory held at once by the reviews this server (process, isolate) reads and converts, in
   * bytes as conversion/held-memory.ts estimates them from each body's size and shape; also the
   * most one review may hold (more fails it, `review-too-large`). Beyond it, a request waits its
   * turn briefly, then gets 429 with Retry-After, which the apiserver retries.
   */
  maxBytesInFlight: number;
  /** Time allowed for one review before it fails cleanly; the apiserver waits 30 s at most. */
  budgetMs: number;
  /**
   * Largest reply where the platform caps responses (6 MB on a Lambda function URL), in bytes of
   * the body embedded in a JSON string, as Lambda carries it. A bigger reply becomes a Failure
   * that says so, instead of an opaque platform error.
   */
  replyLimitBytes?: number;
  /**
   * Caller networks allowed (CRDSHIFT_ALLOWED_SOURCES), checked against the address the platform
   * saw; others get 404. Undefined: any caller.
   */
  allowedCallers?: { ranges: readonly string[]; matches: CallerNetworkMatcher };
  /** Deepest nesting of arrays and objects accepted in a body; deeper gets 400. */
  maxDepth: number;
  /** Most objects in one review; more fail the review. */
  maxObjects: number;
  /** Largest single object, in bytes of JSON; larger fails the review, naming it. */
  maxObjectBytes: number;
  /** Where metrics go; see src/metrics. */
  metrics: MetricsConfig;
  /**
   * Which reviews get a log line (CRDSHIFT_LOG_REVIEWS): `failures`, the default, logs reviews
   * answered with a Failure only (metrics count the rest: a line for every read is log volume a
   * user pays for); `all` logs successful ones too. Rejections and errors are logged either way.
   */
  logReviews: LogReviews;
  /** Debug switch: name each review's objects in its log line (never their contents). */
  logObjectNames: boolean;
  /**
   * Share of reviews a shadow candidate also converts, when the webhook has one
   * (CRDSHIFT_SHADOW_SAMPLE, 0 to 1; see src/shadow/). 0 turns shadowing off.
   */
  shadowSample: number;
}

export type LogReviews = "failures" | "all";

export const DEFAULTS = {
  bodyLimitBytes: 32 * 1024 * 1024,
  // Node: one realistic review of the largest body at a time, what it holds as estimated, with
  // room for reads beside it (docs/performance.md: memory a review holds).
  maxBytesInFlight: 256 * 1024 * 1024,
  budgetMs: 25_000,
  // The apiserver's own: sigs.k8s.io/json reads no document nested deeper, its stored objects
  // and the webhook's reply alike, and a reply nests as deep as its review.
  maxDepth: 10_000,
  maxObjects: 100_000,
  // etcd stores at most 1.5 MiB per object by default: twice that is more than any real one.
  maxObjectBytes: 3 * 1024 * 1024,
  metricsNamespace: "crdshift",
  metricsIntervalMs: 10_000,
  metricsTimeoutMs: 5_000,
  // One review in a hundred: a shadowed review costs a few times a live one (the candidate's
  // conversion, then both replies read and compared), so this adds a few hundredths to the
  // webhook's CPU, and a cluster reading once a second still compares hundreds a day
  // (docs/platforms.md: Shadow mode; `npm run bench:shadow`).
  shadowSample: 0.01,
} as const;

export class ConfigError extends Error {
  override name = "ConfigError";
}

type Env = Readonly<Record<string, unknown>>;

/** A path token's length in characters: 16 is the least we accept, 32+ is advised. */
export const TOKEN_LENGTH = { min: 16, max: 256 } as const;
// base64url: safe in one URL path segment.
const TOKEN = new RegExp(`^[A-Za-z0-9_-]{${TOKEN_LENGTH.min},${TOKEN_LENGTH.max}}$`);

/**
 * What differs by platform when the environment says nothing: the metrics sink (EMF on Lambda)
 * and the platform's own caps on request and reply size (6 MiB on a Lambda function URL).
 */
export interface PlatformDefaults {
  metrics?: MetricsSink;
  bodyLimitBytes?: number;
  maxBytesInFlight?: number;
  replyLimitBytes?: number;
}

/**
 * Cloudflare Workers: an isolate has 128 MB in all. A realistic review of the largest body fits
 * the memory cap, as estimated (conversion/held-memory.ts, measured on Node's larger heap); the
 * densest body under it converts well within the isolate (docs/performance.md,
 * `npm run bench:workers-memory`).
 */
export const WORKERS_DEFAULTS = {
  bodyLimitBytes: 8 * 1024 * 1024,
  maxBytesInFlight: 80 * 1024 * 1024,
} as const satisfies PlatformDefaults;

export function readConfig(env: Env, platform: PlatformDefaults = {}): Config {
  if (text(env, "CRDSHIFT_TOKEN_NEXT") !== undefined && text(env, "CRDSHIFT_TOKEN") === undefined) {
    throw new ConfigError("CRDSHIFT_TOKEN_NEXT is set without CRDSHIFT_TOKEN");
  }
  const tokens: string[] = [];
  for (const name of ["CRDSHIFT_TOKEN", "CRDSHIFT_TOKEN_NEXT"]) {
    const value = text(env, name);
    if (value === undefined) continue;
    if (!TOKEN.test(value)) {
      throw new ConfigError(
        `${name} must be 16 to 256 characters of A-Z a-z 0-9 _ - (for example the output of: node -e "console.log(crypto.randomBytes(24).toString('base64url'))")`,
      );
    }
    tokens.push(value);
  }
  const bodyLimitBytes =
    positiveInteger(env, "CRDSHIFT_BODY_LIMIT_BYTES") ?? platform.bodyLimitBytes ?? DEFAULTS.bodyLimitBytes;
  return {
    tokens,
    bodyLimitBytes,
    maxBytesInFlight: maxBytesInFlight(env, bodyLimitBytes, platform),
    budgetMs: positiveInteger(env, "CRDSHIFT_BUDGET_MS") ?? DEFAULTS.budgetMs,
    replyLimitBytes: positiveInteger(env, "CRDSHIFT_REPLY_LIMIT_BYTES") ?? platform.replyLimitBytes,
    ...callerNetworks(env),
    maxDepth: positiveInteger(env, "CRDSHIFT_MAX_DEPTH") ?? DEFAULTS.maxDepth,
    maxObjects: positiveInteger(env, "CRDSHIFT_MAX_OBJECTS") ?? DEFAULTS.maxObjects,
    maxObjectBytes: positiveInteger(env, "CRDSHIFT_MAX_OBJECT_BYTES") ?? DEFAULTS.maxObjectBytes,
    metrics: readMetrics(env, platform.metrics ?? "none"),
    logReviews: oneOf(env, "CRDSHIFT_LOG_REVIEWS", LOG_REVIEWS) ?? "failures",
    logObjectNames: flag(env, "CRDSHIFT_LOG_OBJECT_NAMES"),
    shadowSample: fraction(env, "CRDSHIFT_SHADOW_SAMPLE") ?? DEFAULTS.shadowSample,
  };
}

const SINKS: readonly MetricsSink[] = ["none", "emf", "cloudwatch"];
const LOG_REVIEWS: readonly LogReviews[] = ["failures", "all"];
// PutMetricData: 1-255 characters, no "AWS/" prefix (reserved); kept to a safe ASCII set.
const NAMESPACE = /^(?!AWS\/)[A-Za-z0-9._/#:-]{1,255}$/;

function readMetrics(env: Env, fallback: MetricsSink): MetricsConfig {
  const sink = oneOf(env, "CRDSHIFT_METRICS", SINKS) ?? fallback;
  if (sink === "none") return { sink };
  const namespace = text(env, "CRDSHIFT_METRICS_NAMESPACE") ?? DEFAULTS.metricsNamespace;
  if (!NAMESPACE.test(namespace)) {
    throw new ConfigError(
      "CRDSHIFT_METRICS_NAMESPACE must be 1 to 255 characters of A-Z a-z 0-9 . _ - / # : and must not start with AWS/",
    );
  }
  if (sink === "emf") return { sink, namespace };
  const region = text(env, "CRDSHIFT_METRICS_REGION") ?? text(env, "AWS_REGION");
  if (region === undefined)
    throw new ConfigError("CRDSHIFT_METRICS=cloudwatch needs a region: set CRDSHIFT_METRICS_REGION (or AWS_REGION)");
  const endpoint = text(env, "CRDSHIFT_METRICS_ENDPOINT");
  if (endpoint !== undefined && !/^https?:\/\/[^/?#\s]+\/?$/.test(endpoint)) {
    throw new ConfigError(
      `CRDSHIFT_METRICS_ENDPOINT must be an http(s) origin such as https://monitoring.${region}.amazonaws.com`,
    );
  }
  const accessKeyId = text(env, "AWS_ACCESS_KEY_ID");
  const secretAccessKey = text(env, "AWS_SECRET_ACCESS_KEY");
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new ConfigError("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together");
  }
  const sessionToken = text(env, "AWS_SESSION_TOKEN");
  return {
    sink,
    namespace,
    region,
    ...(endpoint ? { endpoint } : {}),
    ...(accessKeyId && secretAccessKey
      ? { credentials: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) } }
      : {}),
    intervalMs: positiveInteger(env, "CRDSHIFT_METRICS_INTERVAL_MS") ?? DEFAULTS.metricsIntervalMs,
    timeoutMs: positiveInteger(env, "CRDSHIFT_METRICS_TIMEOUT_MS") ?? DEFAULTS.metricsTimeoutMs,
  };
}

/**
 * CRDSHIFT_MAX_BYTES_IN_FLIGHT, which must leave room for what a body of the largest size holds
 * at least (its text, read and answered); by default the platform's, or that least where it is
 * larger (one largest review at a time).
 */
function maxBytesInFlight(env: Env, bodyLimitBytes: number, platform: PlatformDefaults): number {
  const least = heldAtLeast(bodyLimitBytes);
  const set = positiveInteger(env, "CRDSHIFT_MAX_BYTES_IN_FLIGHT");
  if (set === undefined) return Math.max(least, platform.maxBytesInFlight ?? DEFAULTS.maxBytesInFlight);
  if (set < least) {
    throw new ConfigError(
      `CRDSHIFT_MAX_BYTES_IN_FLIGHT (${set}) must be at least ${least}, ${HELD_PER_CHAR} times CRDSHIFT_BODY_LIMIT_BYTES (${bodyLimitBytes}): ` +
        "the memory a review of the largest body holds at least (its text, read and answered), or such a body could never be converted",
    );
  }
  return set;
}

function callerNetworks(env: Env): Pick<Config, "allowedCallers"> {
  const value = text(env, "CRDSHIFT_ALLOWED_SOURCES");
  if (value === undefined) return {};
  try {
    return { allowedCallers: parseCallerNetworks(value) };
  } catch (error) {
    throw new ConfigError(
      `CRDSHIFT_ALLOWED_SOURCES: ${(error as Error).message}; give addresses or CIDR ranges separated by commas`,
    );
  }
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[]): T | undefined {
  const value = text(env, name);
  if (value === undefined || (values as readonly string[]).includes(value)) return value as T | undefined;
  throw new ConfigError(`${name} must be one of ${values.join(", ")}, got ${JSON.stringify(value)}`);
}

function flag(env: Env, name: string): boolean {
  const value = text(env, name);
  if (value === undefined || value === "false" || value === "0") return false;
  if (value === "true" || value === "1") return true;
  throw new ConfigError(`${name} must be true or false, got ${JSON.stringify(value)}`);
}

function text(env: Env, name: string): string | undefined {
  const value = env[name];
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") throw new ConfigError(`${name} must be a string`);
  return value.trim();
}

function fraction(env: Env, name: string): number | undefined {
  const value = text(env, name);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1)
    throw new ConfigError(
      `${name} must be a number from 0 to 1 (0.01: one review in a hundred), got ${JSON.stringify(value)}`,
    );
  return n;
}

function positiveInteger(env: Env, name: string): number | undefined {
  const value = text(env, name);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new ConfigError(`${name} must be a positive whole number, got ${JSON.stringify(value)}`);
  return n;
}
