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
  /** Time allowed for one review before it fails cleanly; the apiserver waits 30 s at most. */
  budgetMs: number;
  /**
   * Largest reply where the platform caps responses (6 MB on a Lambda function URL), in bytes of
   * the body embedded in a JSON string, as Lambda carries it. A bigger reply becomes a Failure
   * that says so, instead of an opaque platform error.
   */
  replyLimitBytes?: number;
}

export const DEFAULTS = {
  bodyLimitBytes: 32 * 1024 * 1024,
  budgetMs: 25_000,
} as const;

export class ConfigError extends Error {
  override name = "ConfigError";
}

type Env = Readonly<Record<string, unknown>>;

// base64url: safe in one URL path segment; 16 characters is the least we accept, 32+ is advised.
const TOKEN = /^[A-Za-z0-9_-]{16,256}$/;

export function readConfig(env: Env): Config {
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
  return {
    tokens,
    bodyLimitBytes: positiveInteger(env, "CRDSHIFT_BODY_LIMIT_BYTES") ?? DEFAULTS.bodyLimitBytes,
    budgetMs: positiveInteger(env, "CRDSHIFT_BUDGET_MS") ?? DEFAULTS.budgetMs,
    replyLimitBytes: positiveInteger(env, "CRDSHIFT_REPLY_LIMIT_BYTES"),
  };
}

function text(env: Env, name: string): string | undefined {
  const value = env[name];
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") throw new ConfigError(`${name} must be a string`);
  return value.trim();
}

function positiveInteger(env: Env, name: string): number | undefined {
  const value = text(env, name);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) throw new ConfigError(`${name} must be a positive whole number, got ${JSON.stringify(value)}`);
  return n;
}
