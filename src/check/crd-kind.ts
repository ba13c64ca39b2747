import type { Crd } from "../kube/crd";
import { kindLabel } from "../kube";
import type { Result } from "../outcome";
import { type KindDefinition, type Registry, sortVersions, servedKinds } from "../conversion";

/**
 * The registry's kind for a CRD, provided it defines exactly the CRD's versions; otherwise why
 * not, in one sentence that names the CRD and what each side lacks. `crdshift crd` and
 * `checkAgainstCrd` refuse on it; doctor weighs each version on its own (served, listed, stored).
 */
export function kindForCrd(registry: Registry, crd: Crd): Result<{ kind: KindDefinition }, { problem: string }> {
  const kind = registry.lookup(crd.group, crd.kind);
  const label = kindLabel(crd);
  if (!kind)
    return { ok: false, problem: `${crd.name}: ${label} is not in the registry (it serves ${servedKinds(registry)})` };
  const listed = crd.versions.map((version) => version.name);
  const registered = [...kind.versions.keys()];
  const registryLacks = listed.filter((version) => !registered.includes(version));
  const crdLacks = registered.filter((version) => !listed.includes(version));
  if (registryLacks.length === 0 && crdLacks.length === 0) return { ok: true, kind };
  const parts = [
    registryLacks.length > 0 ? `the registry lacks ${registryLacks.join(", ")}` : "",
    crdLacks.length > 0 ? `the CRD lacks ${crdLacks.join(", ")}` : "",
  ].filter(Boolean);
  return {
    ok: false,
    problem: `${crd.name}: the CRD's versions (${sortVersions(listed).join(", ")}) differ from the registry's for ${label} (${sortVersions(registered).join(", ")}): ${parts.join("; ")}`,
  };
}
