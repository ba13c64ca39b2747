import { ApiException } from "@kubernetes/client-node";

/**
 * Why a migration stopped, as a code scripts can read: the cluster could not be reached, a
 * permission is missing, the apiserver could not convert an object (the webhook failed it), or
 * the apiserver refused a request in some other way.
 */
export type MigrationErrorCode =
  "unreachable" | "unauthorized" | "forbidden" | "conversion-failed" | "not-ready" | "api-error";

export class MigrationError extends Error {
  override name = "MigrationError";
  constructor(
    readonly code: MigrationErrorCode,
    message: string,
    /** The client's error, kept to read its status and body. */
    options?: { cause: unknown },
  ) {
    super(message, options);
  }
}

/** One request to the apiserver, named for the messages of its failure. */
export interface Request {
  /** The RBAC verb and resource the request needs: `patch` on `crontabs.example.com`. */
  verb: string;
  resource: string;
  /** What was being done, for a person: `listing crontabs.example.com in v1`. */
  doing: string;
}

/** The HTTP status of a failed request, when the apiserver answered one. */
export function statusOf(error: unknown): number | undefined {
  return error instanceof ApiException ? error.code : undefined;
}

/** The `metadata.continue` of a 410 Status: the token to go on with an inconsistent list. */
export function expiredContinue(error: unknown): string | undefined {
  const body = statusBody(error);
  const metadata = body?.metadata as { continue?: unknown } | undefined;
  return typeof metadata?.continue === "string" && metadata.continue !== "" ? metadata.continue : undefined;
}

/** The `details.name` of a 404 Status: the object the apiserver did not find. */
export function notFoundName(error: unknown): string | undefined {
  const details = statusBody(error)?.details as { name?: unknown } | undefined;
  return typeof details?.name === "string" ? details.name : undefined;
}

/**
 * A failed request as a MigrationError that says what to do: the server that could not be
 * reached, the verb and resource a 403 lacks, the conversion failure the apiserver reported.
 */
export function migrationError(error: unknown, request: Request, server: string): MigrationError {
  if (error instanceof MigrationError) return error;
  const cause = { cause: error };
  const status = statusOf(error);
  if (status === undefined) {
    const inner = (error as { cause?: { message?: unknown } })?.cause?.message;
    // The client's message names the URL it fetched, with any user:password the kubeconfig put in it.
    const text = (typeof inner === "string" ? inner : error instanceof Error ? error.message : String(error)).replace(
      /\/\/[^/@\s]*@/g,
      "//",
    );
    return new MigrationError(
      "unreachable",
      `cannot reach the cluster at ${server} while ${request.doing}: ${text} (check the kubeconfig's server and context, --kubeconfig and --context)`,
      cause,
    );
  }
  const said = statusMessage(error);
  if (status === 401)
    return new MigrationError(
      "unauthorized",
      `the cluster at ${server} refused the kubeconfig's credentials (401) while ${request.doing}: log in again or pick another --context`,
      cause,
    );
  if (status === 403)
    return new MigrationError(
      "forbidden",
      `forbidden while ${request.doing}: crdshift migrate needs "${request.verb}" on ${request.resource}${said ? ` (${said})` : ""}; see docs/migrate.md for the whole Role`,
      cause,
    );
  if (isConversionFailure(said))
    return new MigrationError(
      "conversion-failed",
      `the apiserver could not convert while ${request.doing}: ${said}`,
      cause,
    );
  return new MigrationError(
    "api-error",
    `${request.doing} failed with HTTP ${status}${said ? `: ${said}` : ""}`,
    cause,
  );
}

/**
 * The apiserver reports a failed conversion as a 500 whose message starts
 * `conversion webhook for <group/version, Kind=…> failed: <the webhook's message>`.
 */
export function isConversionFailure(message: string | undefined): boolean {
  return message !== undefined && /conversion webhook for .* failed/.test(message);
}

function statusMessage(error: unknown): string | undefined {
  const body = statusBody(error);
  if (typeof body?.message === "string") return body.message;
  const raw = error instanceof ApiException ? error.body : undefined;
  return typeof raw === "string" && raw !== "" ? raw : undefined;
}

function statusBody(error: unknown): Record<string, unknown> | undefined {
  if (!(error instanceof ApiException)) return undefined;
  const body: unknown = error.body;
  if (typeof body === "object" && body !== null) return body as Record<string, unknown>;
  if (typeof body !== "string") return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
