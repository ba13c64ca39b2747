/** A parsed `apiVersion` of a custom resource: always `group/version` (CRDs have a group). */
export interface GroupVersion {
  group: string;
  version: string;
}

export function parseApiVersion(apiVersion: string): GroupVersion | undefined {
  const slash = apiVersion.indexOf("/");
  if (slash <= 0 || slash === apiVersion.length - 1 || apiVersion.indexOf("/", slash + 1) !== -1) {
    return undefined;
  }
  return { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}
