import { kindLabel } from "../../kube";
import { type KindDefinition, type Registry, sortVersions, servedKinds } from "../../conversion";
import type { CrdConfig } from "./crd-config";
import { error, type Finding, info, warning } from "./finding";

/** The CRD's versions, served, listed and stored, against the kind the registry defines. */
export function registryChecks(crd: CrdConfig, registry: Registry, definition: KindDefinition | undefined): Finding[] {
  const label = kindLabel(crd);
  if (!definition) {
    const served = servedKinds(registry);
    return [
      error(
        "kind-not-in-registry",
        `${label} is not in the registry (it serves ${served}): the webhook fails every conversion of it`,
        `add a defineKind for ${label} to the registry, or point --registry at the module that has it`,
      ),
    ];
  }
  const found: Finding[] = [];
  const registered = new Set(definition.versions.keys());
  for (const version of crd.versions) {
    if (registered.has(version.name)) continue;
    if (version.served) {
      found.push(
        error(
          "served-version-not-in-registry",
          `${version.name} is served, but the registry lacks it: every read of ${label} in ${version.name}, or of objects stored in it, fails`,
          `add ${version.name} to ${label}'s versions in the registry, with converters`,
        ),
      );
    } else if (!crd.storedVersions?.includes(version.name)) {
      found.push(
        warning(
          "listed-version-not-in-registry",
          `${version.name} is listed (not served), but the registry lacks it: apiservers before Kubernetes 1.35 still convert objects into every listed version`,
          `add ${version.name} to the registry, or remove it from spec.versions`,
        ),
      );
    }
  }
  if (crd.storedVersions === undefined) {
    found.push(
      info(
        "stored-versions-unknown",
        "the manifest has no status.storedVersions, so the versions objects are stored in were not checked; give kubectl get crd NAME -o yaml to check them",
      ),
    );
  } else {
    for (const version of crd.storedVersions) {
      if (registered.has(version)) continue;
      found.push(
        error(
          "stored-version-not-in-registry",
          `status.storedVersions lists ${version}, which the registry lacks: objects stored in ${version} cannot be converted, so reading them in any other version fails`,
          `keep ${version} in the registry (with a converter to a version it has) until every object is rewritten in the storage version and ${version} is removed from status.storedVersions`,
        ),
      );
    }
  }
  const listed = new Set(crd.versions.map((version) => version.name));
  const extra = sortVersions([...registered].filter((version) => !listed.has(version)));
  if (extra.length > 0) {
    found.push(
      warning(
        "registry-version-not-in-crd",
        `the registry has ${extra.join(", ")} for ${label}, which the CRD does not list: the apiserver never asks for ${extra.length === 1 ? "it" : "them"}`,
        `add ${extra.join(", ")} to spec.versions when ready, or check the CRD is the current one`,
      ),
    );
  }
  return found;
}
