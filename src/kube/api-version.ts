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

/** The group-versions of apiextensions.k8s.io: what a ConversionReview's and a CRD's apiVersion may be. */
export const APIEXTENSIONS_VERSIONS = ["apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1"] as const;
export type ApiextensionsVersion = (typeof APIEXTENSIONS_VERSIONS)[number];

export function isApiextensionsVersion(value: unknown): value is ApiextensionsVersion {
  return value === APIEXTENSIONS_VERSIONS[0] || value === APIEXTENSIONS_VERSIONS[1];
}

/** A kind as kubectl names it across versions: `HTTPRoute.gateway.networking.k8s.io`. */
export function kindLabel(kind: { kind: string; group: string }): string {
  return `${kind.kind}.${kind.group}`;
}
