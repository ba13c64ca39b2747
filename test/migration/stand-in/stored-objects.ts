import { ConversionFailed, convertThroughWebhook } from "./webhook-conversion";

/** One custom object as etcd holds it: its body in the version it was stored in. */
export interface StoredObject {
  body: Record<string, unknown>;
  /** The version the body is stored in: the storage version when it was last written. */
  storedVersion: string;
}

/** What the stand-in answers with instead of an object: an HTTP status and the Status message. */
export class StatusError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly continueToken?: string,
    /** The Status's details: an object not found names it (`{name, group, kind}`), a resource not served does not. */
    readonly details?: Record<string, string>,
  ) {
    super(message);
  }
}

/**
 * The custom objects of one CRD, as the apiserver stores and serves them: each records the
 * version it is stored in; a read converts it to the requested version through the webhook; a
 * write stores it in the CRD's current storage version, converting through the webhook, with
 * resourceVersion preconditions (409) and without a write when the stored bytes would not change.
 */
export class StoredObjects {
  readonly objects = new Map<string, StoredObject>();
  /** Every write that reached storage, by key, in order. */
  readonly writes: string[] = [];
  private revision = 100;

  constructor(
    private readonly group: string,
    private readonly plural: string,
    private readonly webhookUrl: () => string,
    private readonly storageVersion: () => string,
  ) {}

  nextRevision(): string {
    return String(++this.revision);
  }

  static key(namespace: string | undefined, name: string): string {
    return namespace ? `${namespace}/${name}` : name;
  }

  /** Stores an object as given, in its own apiVersion's version (how a test seeds etcd). */
  seed(body: Record<string, unknown>): void {
    const metadata = body.metadata as { name: string; namespace?: string };
    const version = String(body.apiVersion).split("/")[1]!;
    // A uid unique in the cluster, as the apiserver's are (two namespaces may hold the same name).
    const uid = `uid-${metadata.namespace ?? ""}-${metadata.name}`;
    const stamped = { ...body, metadata: { ...metadata, resourceVersion: this.nextRevision(), uid } };
    this.objects.set(StoredObjects.key(metadata.namespace, metadata.name), { body: stamped, storedVersion: version });
  }

  /** A write by someone else: the object's resourceVersion moves on, stored in the storage version. */
  async touch(key: string): Promise<void> {
    const body = await this.read(key, this.storageVersion());
    body.metadata = { ...(body.metadata as object), resourceVersion: this.nextRevision() };
    this.objects.set(key, { body, storedVersion: this.storageVersion() });
  }

  async read(key: string, version: string): Promise<Record<string, unknown>> {
    const stored = this.objects.get(key);
    if (!stored)
      throw new StatusError(
        404,
        "NotFound",
        `${this.plural}.${this.group} "${key.split("/").at(-1)}" not found`,
        undefined,
        {
          name: key.split("/").at(-1)!,
          group: this.group,
          kind: this.plural,
        },
      );
    try {
      return structuredClone(await convertThroughWebhook(this.webhookUrl(), stored.body, `${this.group}/${version}`));
    } catch (error) {
      if (error instanceof ConversionFailed) throw new StatusError(500, "", error.message);
      throw error;
    }
  }

  /** The keys in list order (namespace, then name), as etcd's key order gives them. */
  keys(): string[] {
    return [...this.objects.keys()].sort();
  }

  /**
   * A JSON merge patch of `patch` onto the object read in `version`, stored in the storage
   * version: a resourceVersion in the patch is a precondition.
   */
  async patch(key: string, version: string, patch: Record<string, unknown>): Promise<Record<string, unknown>> {
    const current = await this.read(key, version);
    const wanted = (patch.metadata as { resourceVersion?: unknown } | undefined)?.resourceVersion;
    const metadata = current.metadata as { resourceVersion: string; name: string };
    if (wanted !== undefined && wanted !== metadata.resourceVersion)
      throw new StatusError(
        409,
        "Conflict",
        `Operation cannot be fulfilled on ${this.plural}.${this.group} "${metadata.name}": the object has been modified; please apply your changes to the latest version and try again`,
      );
    const patched = mergePatch(current, patch) as Record<string, unknown>;
    const fields = (patched.metadata as { managedFields?: unknown[] }).managedFields;
    // `[{}]` clears managedFields; an empty list would leave them as they are.
    if (fields?.length === 1 && Object.keys(fields[0] as object).length === 0)
      (patched.metadata as { managedFields?: unknown[] }).managedFields = [];
    else if (fields?.length === 0)
      (patched.metadata as { managedFields?: unknown[] }).managedFields = (
        current.metadata as { managedFields?: unknown[] }
      ).managedFields;
    const storage = this.storageVersion();
    let body: Record<string, unknown>;
    try {
      body = await convertThroughWebhook(this.webhookUrl(), patched, `${this.group}/${storage}`);
    } catch (error) {
      if (error instanceof ConversionFailed) throw new StatusError(500, "", error.message);
      throw error;
    }
    const stored = this.objects.get(key)!;
    // The apiserver skips the write when the encoded object equals what etcd holds.
    if (stored.storedVersion === storage && JSON.stringify(stored.body) === JSON.stringify(body)) return current;
    body.metadata = { ...(body.metadata as object), resourceVersion: this.nextRevision() };
    this.objects.set(key, { body, storedVersion: storage });
    this.writes.push(key);
    return this.read(key, version);
  }
}

/** RFC 7386. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== "object" || patch === null || Array.isArray(patch)) return patch;
  const result: Record<string, unknown> =
    typeof target === "object" && target !== null && !Array.isArray(target) ? { ...(target as object) } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}
