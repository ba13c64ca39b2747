import {
  ApisApi,
  type ConfigurationOptions,
  CustomObjectsApi,
  KubeConfig,
  Observable,
  type ObservableMiddleware,
  PatchStrategy,
  type RequestContext,
} from "@kubernetes/client-node";
import { MigrationError, migrationError, type Request } from "./cluster-errors";

/**
 * One request to the apiserver may take this long, from sending it to its last byte: a little
 * more than the 60 s after which the apiserver ends a request itself (a list page converts each
 * object stored elsewhere through the webhook, one call at a time).
 */
export const REQUEST_DEADLINE_MS = 70_000;

export interface ClusterOptions {
  /** A kubeconfig file; default: $KUBECONFIG, ~/.kube/config, then the in-cluster service account. */
  kubeconfig?: string;
  /** A context of the kubeconfig; default: its current context. */
  context?: string;
  requestDeadlineMs?: number;
}

/**
 * A cluster as migrate talks to it: through @kubernetes/client-node and the user's kubeconfig
 * (its auth plugins, certificates and proxies), every request with a deadline and every
 * failure turned into a MigrationError that names what was being done.
 */
export interface Cluster {
  /** The apiserver's URL, for messages. */
  server: string;
  objects: CustomObjectsApi;
  discovery: ApisApi;
  /** Per-request options: the deadline, and for `patch` the merge-patch content type. */
  options(patch?: "merge"): ConfigurationOptions;
  call<T>(request: Request, send: () => Promise<T>): Promise<T>;
}

export function connectCluster(options: ClusterOptions = {}): Cluster {
  const config = new KubeConfig();
  const where = options.kubeconfig ?? "the default kubeconfig ($KUBECONFIG, ~/.kube/config)";
  try {
    if (options.kubeconfig !== undefined) config.loadFromFile(options.kubeconfig);
    else config.loadFromDefault();
  } catch (error) {
    // A YAML error's message goes on with the lines around it: a token or key of the file.
    const reason = String((error as Error)?.message ?? error).split("\n", 1)[0];
    throw new MigrationError("unreachable", `cannot read ${where}: ${reason}`);
  }
  if (options.context !== undefined) {
    if (!config.getContextObject(options.context))
      throw new MigrationError(
        "unreachable",
        `${where} has no context ${JSON.stringify(options.context)} (it has: ${config.contexts.map((context) => context.name).join(", ") || "none"})`,
      );
    config.setCurrentContext(options.context);
  }
  const cluster = config.getCurrentCluster();
  if (!cluster)
    throw new MigrationError(
      "unreachable",
      `${where} has no cluster for the context ${JSON.stringify(config.getCurrentContext())}`,
    );
  const deadlineMs = options.requestDeadlineMs ?? REQUEST_DEADLINE_MS;
  // A deadline for the whole request, not an idle timeout: a server that drips bytes is not waited on.
  const deadline = before((request) => request.setSignal(AbortSignal.timeout(deadlineMs)));
  const mergePatch = before((request) => request.setHeaderParam("Content-Type", PatchStrategy.MergePatch));
  const server = withoutCredentials(cluster.server);
  return {
    server,
    objects: config.makeApiClient(CustomObjectsApi),
    discovery: config.makeApiClient(ApisApi),
    options: (patch) => ({
      middleware: patch === "merge" ? [deadline, mergePatch] : [deadline],
      middlewareMergeStrategy: "append",
    }),
    async call(request, send) {
      try {
        return await send();
      } catch (error) {
        throw migrationError(error, request, server);
      }
    },
  };
}

/** A middleware that changes each request before it is sent. */
function before(change: (request: RequestContext) => void): ObservableMiddleware {
  return {
    pre: (request) => {
      change(request);
      return new Observable(Promise.resolve(request));
    },
    post: (response) => new Observable(Promise.resolve(response)),
  };
}

/** The server's URL for messages, without a user or password written into it. */
function withoutCredentials(server: string): string {
  try {
    const url = new URL(server);
    if (url.username === "" && url.password === "") return server;
    url.username = "";
    url.password = "";
    return url.href;
  } catch {
    return server.replace(/\/\/[^/@]*@/, "//");
  }
}
