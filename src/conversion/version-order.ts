/**
 * Kubernetes' version priority, as the CRD versions docs page describes it (and as kubectl
 * picks a default version): `v10, v2, v1, v11beta2, v10beta3, v3beta1, v12alpha1, v11alpha2,
 * foo1, foo10`. GA before beta before alpha; larger numbers first; names that are not
 * Kubernetes versions last, alphabetically.
 */
const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;
const STABILITY = { ga: 2, beta: 1, alpha: 0 } as const;

interface Parsed {
  major: number;
  stability: number;
  minor: number;
}

function parse(name: string): Parsed | undefined {
  const match = KUBE_VERSION.exec(name);
  if (!match) return undefined;
  const [, major, level, minor] = match;
  return {
    major: Number(major),
    stability: STABILITY[(level as "alpha" | "beta" | undefined) ?? "ga"],
    minor: Number(minor ?? 0),
  };
}

/** Negative when `a` has the higher priority. */
function compareVersions(a: string, b: string): number {
  const pa = parse(a);
  const pb = parse(b);
  if (pa && pb) return pb.stability - pa.stability || pb.major - pa.major || pb.minor - pa.minor;
  if (pa) return -1;
  if (pb) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

export function sortVersions(names: readonly string[]): string[] {
  return [...names].sort(compareVersions);
}
