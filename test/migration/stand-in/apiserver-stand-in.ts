import type { IncomingMessage, ServerResponse } from "node:http";
import type * as http from "node:http";
import * as https from "node:https";
import { StatusError, StoredObjects } from "./stored-objects";
import { StorageMigrations } from "./storage-migrations";
import { TEST_CERT, TEST_KEY } from "./test-certificate";

export interface StandInOptions {
  /** The CRD as `kubectl get crd -o json` prints it, status.storedVersions included. */
  crd: Record<string, unknown>;
  webhookUrl: string;
  /** The StorageVersionMigration version served, if any (`v1beta1`, `v1`). */
  migrationApi?: string;
  /** Whether a finished StorageVersionMigration prunes storedVersions itself (1.36 on). */
  apiserverPrunes?: boolean;
  /** `verb resource`, e.g. `patch crontabs.example.com`: answered 403. */
  forbidden?: string[];
}

/** A test's hooks into the apiserver's behaviour. */
export interface StandInHooks {
  /** Runs before each write of an object by a client; may touch or delete objects. */
  beforePatch?: (key: string) => Promise<void> | void;
  /** Makes the next list's continue token expired (410), once. */
  expireNextContinue?: boolean;
  /** With expireNextContinue: a 410 that offers no inconsistent continue token (start the list again). */
  expireWithoutToken?: boolean;
  /** Answers this many reads of a StorageVersionMigration by name with a 503, the migration going on. */
  failMigrationReads?: number;
  /** Holds every StorageVersionMigration Running, its objects not yet rewritten, until it resolves. */
  holdMigrations?: Promise<void>;
}

/**
 * A stand-in for the kube-apiserver, on 127.0.0.1, that answers the requests crdshift migrate
 * sends as the apiserver documents them: discovery, the CRD and its status subresource, custom
 * objects (list with limit and continue, get, merge patch with resourceVersion preconditions),
 * StorageVersionMigrations with their conditions, and 403 for a permission it is told is missing.
 */
export class ApiserverStandIn {
  readonly store: StoredObjects;
  readonly migrations: StorageMigrations;
  readonly hooks: StandInHooks = {};
  /** Every request, `METHOD path`. */
  readonly requests: string[] = [];
  crd: Record<string, unknown>;
  private crdRevision = 10;
  private server: http.Server | undefined;
  origin = "";

  constructor(private readonly options: StandInOptions) {
    this.crd = structuredClone(options.crd);
    (this.crd.metadata as Record<string, unknown>).resourceVersion = String(this.crdRevision);
    (this.crd.metadata as Record<string, unknown>).generation = 1;
    const spec = this.crd.spec as { group: string; names: { plural: string } };
    this.store = new StoredObjects(
      spec.group,
      spec.names.plural,
      () => options.webhookUrl,
      () => this.storageVersion(),
    );
    this.migrations = new StorageMigrations(this);
  }

  get group(): string {
    return (this.crd.spec as { group: string }).group;
  }

  get plural(): string {
    return (this.crd.spec as { names: { plural: string } }).names.plural;
  }

  get storedVersions(): string[] {
    return (this.crd.status as { storedVersions: string[] }).storedVersions;
  }

  get prunes(): boolean {
    return this.options.apiserverPrunes === true;
  }

  storageVersion(): string {
    const versions = (this.crd.spec as { versions: { name: string; storage: boolean }[] }).versions;
    return versions.find((version) => version.storage)!.name;
  }

  /** What `kubectl edit crd` does to storage: true, with the apiserver's bookkeeping. */
  setStorageVersion(name: string): void {
    const versions = (this.crd.spec as { versions: { name: string; storage: boolean }[] }).versions;
    for (const version of versions) version.storage = version.name === name;
    if (!this.storedVersions.includes(name)) this.storedVersions.push(name);
    this.bumpCrd();
    (this.crd.metadata as { generation: number }).generation++;
  }

  setStoredVersions(versions: string[]): void {
    (this.crd.status as { storedVersions: string[] }).storedVersions = versions;
    this.bumpCrd();
  }

  private bumpCrd(): void {
    (this.crd.metadata as Record<string, unknown>).resourceVersion = String(++this.crdRevision);
  }

  async listen(): Promise<string> {
    // Over TLS as an apiserver is (client-node refuses plain http without skipping verification).
    this.server = https.createServer({ key: TEST_KEY, cert: TEST_CERT }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        this.route(req, Buffer.concat(chunks).toString("utf8")).then(
          (value) => send(res, 200, value),
          (error: unknown) => {
            if (error instanceof StatusError) send(res, error.code, status(error));
            else send(res, 500, { kind: "Status", status: "Failure", code: 500, message: String(error) });
          },
        );
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.origin = `https://127.0.0.1:${(this.server.address() as { port: number }).port}`;
    return this.origin;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server?.closeAllConnections();
      this.server?.close(() => resolve());
    });
  }

  private async route(req: IncomingMessage, text: string): Promise<unknown> {
    const url = new URL(req.url ?? "/", "http://stand-in");
    const method = req.method ?? "GET";
    this.requests.push(`${method} ${url.pathname}`);
    const body = text === "" ? undefined : (JSON.parse(text) as Record<string, unknown>);
    const parts = url.pathname.split("/").filter(Boolean);
    if (url.pathname === "/apis") return this.discovery();
    // /apis/apiextensions.k8s.io/v1/customresourcedefinitions[/NAME[/status]]
    if (parts[1] === "apiextensions.k8s.io" && parts[3] === "customresourcedefinitions") {
      const crds = "customresourcedefinitions.apiextensions.k8s.io";
      if (parts.length === 4) {
        this.authorize("list", crds);
        return { kind: "CustomResourceDefinitionList", apiVersion: "apiextensions.k8s.io/v1", items: [this.crd] };
      }
      if (parts[4] !== (this.crd.metadata as { name: string }).name)
        throw new StatusError(
          404,
          "NotFound",
          `customresourcedefinitions.apiextensions.k8s.io "${parts[4]}" not found`,
        );
      if (parts[5] === "status" && method === "PATCH") {
        this.authorize("patch", "customresourcedefinitions/status");
        return this.patchCrdStatus(body ?? {}, req.headers["content-type"]);
      }
      this.authorize("get", crds);
      return this.crd;
    }
    if (
      parts[1] === "storagemigration.k8s.io" &&
      this.options.migrationApi === parts[2] &&
      parts[3] === "storageversionmigrations"
    ) {
      const resource = "storageversionmigrations.storagemigration.k8s.io";
      if (method === "POST") {
        this.authorize("create", resource);
        return this.migrations.create(body ?? {}, parts[2]!);
      }
      if (parts[4] === undefined) {
        this.authorize("list", resource);
        return this.migrations.list(parts[2]!, url.searchParams.get("labelSelector"));
      }
      this.authorize("get", resource);
      if (this.hooks.failMigrationReads) {
        this.hooks.failMigrationReads--;
        throw new StatusError(503, "ServiceUnavailable", "the server is currently unable to handle the request");
      }
      return this.migrations.get(parts[4]);
    }
    if (parts[1] === this.group) return this.customObjects(method, parts, url, body, req.headers["content-type"]);
    throw new StatusError(404, "NotFound", `the server could not find the requested resource`);
  }

  private discovery(): unknown {
    const groups = [
      { name: "apiextensions.k8s.io", versions: [{ groupVersion: "apiextensions.k8s.io/v1", version: "v1" }] },
    ];
    if (this.options.migrationApi) {
      const version = this.options.migrationApi;
      groups.push({
        name: "storagemigration.k8s.io",
        versions: [{ groupVersion: `storagemigration.k8s.io/${version}`, version }],
      });
    }
    return { kind: "APIGroupList", apiVersion: "v1", groups };
  }

  private authorize(verb: string, resource: string): void {
    if (!this.options.forbidden?.includes(`${verb} ${resource}`)) return;
    const [name, group = ""] = resource.split(/\.(.*)/s);
    throw new StatusError(
      403,
      "Forbidden",
      `${resource} is forbidden: User "system:serviceaccount:test:migrator" cannot ${verb} resource "${name}" in API group "${group}" at the cluster scope`,
    );
  }

  private patchCrdStatus(patch: Record<string, unknown>, contentType: string | undefined): unknown {
    if (contentType !== "application/merge-patch+json")
      throw new StatusError(415, "UnsupportedMediaType", `the body of the request was in an unknown format`);
    const wanted = (patch.metadata as { resourceVersion?: unknown } | undefined)?.resourceVersion;
    const metadata = this.crd.metadata as { resourceVersion: string; name: string };
    if (wanted !== undefined && wanted !== metadata.resourceVersion)
      throw new StatusError(
        409,
        "Conflict",
        `Operation cannot be fulfilled on customresourcedefinitions.apiextensions.k8s.io "${metadata.name}": the object has been modified; please apply your changes to the latest version and try again`,
      );
    const stored = (patch.status as { storedVersions?: string[] } | undefined)?.storedVersions;
    if (stored) {
      // The apiserver's validation of the status (apiextensions validation.go).
      if (!stored.includes(this.storageVersion()))
        throw new StatusError(
          422,
          "Invalid",
          `status.storedVersions: Invalid value: must have the storage version ${this.storageVersion()}`,
        );
      this.setStoredVersions(stored);
    }
    return this.crd;
  }

  private async customObjects(
    method: string,
    parts: string[],
    url: URL,
    body: Record<string, unknown> | undefined,
    contentType: string | undefined,
  ): Promise<unknown> {
    const version = parts[2]!;
    const resource = `${this.plural}.${this.group}`;
    const namespaced = parts[3] === "namespaces";
    const namespace = namespaced ? parts[4] : undefined;
    const rest = namespaced ? parts.slice(5) : parts.slice(3);
    // The apiserver serves a custom resource only in the versions marked served: true.
    const served = (this.crd.spec as { versions: { name: string; served: boolean }[] }).versions.some(
      (entry) => entry.name === version && entry.served,
    );
    if (rest[0] !== this.plural || !served)
      throw new StatusError(404, "NotFound", "the server could not find the requested resource");
    if (rest.length === 1 && method === "GET") {
      this.authorize("list", resource);
      return this.list(version, url);
    }
    const key = StoredObjects.key(namespace, rest[1]!);
    if (method === "GET") {
      this.authorize("get", resource);
      return this.store.read(key, version);
    }
    if (method === "PATCH") {
      this.authorize("patch", resource);
      if (contentType !== "application/merge-patch+json")
        throw new StatusError(415, "UnsupportedMediaType", "the body of the request was in an unknown format");
      await this.hooks.beforePatch?.(key);
      return this.store.patch(key, version, body ?? {});
    }
    throw new StatusError(405, "MethodNotAllowed", `${method} is not supported`);
  }

  private async list(version: string, url: URL): Promise<unknown> {
    const limit = Number(url.searchParams.get("limit") ?? "0");
    const token = url.searchParams.get("continue");
    const keys = this.store.keys();
    let start = 0;
    if (token) {
      const after = Buffer.from(token, "base64url").toString("utf8");
      if (this.hooks.expireNextContinue) {
        this.hooks.expireNextContinue = false;
        // The apiserver offers a token that continues from the same key, inconsistently.
        throw new StatusError(
          410,
          "Expired",
          "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.",
          this.hooks.expireWithoutToken ? undefined : token,
        );
      }
      start = keys.findIndex((key) => key > after);
      if (start < 0) start = keys.length;
    }
    const page = limit > 0 ? keys.slice(start, start + limit) : keys.slice(start);
    const items = [];
    // One conversion per object, as the apiserver decodes a list's items one at a time.
    for (const key of page) items.push(await this.store.read(key, version));
    const more = start + page.length < keys.length;
    return {
      apiVersion: `${this.group}/${version}`,
      kind: `${(this.crd.spec as { names: { kind: string } }).names.kind}List`,
      metadata: {
        resourceVersion: this.store.nextRevision(),
        ...(more ? { continue: Buffer.from(page.at(-1)!, "utf8").toString("base64url") } : {}),
      },
      items,
    };
  }
}

function status(error: StatusError): unknown {
  return {
    kind: "Status",
    apiVersion: "v1",
    metadata: error.continueToken ? { continue: error.continueToken } : {},
    status: "Failure",
    message: error.message,
    reason: error.reason,
    ...(error.details ? { details: error.details } : {}),
    code: error.code,
  };
}

function send(res: ServerResponse, code: number, value: unknown): void {
  res.writeHead(code, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}
