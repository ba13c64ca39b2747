import { kindLabel } from "../kube";
import { DefinitionError } from "./definition-error";
import type { KindDefinition } from "./kind";

/** Every kind one webhook URL serves, looked up by API group and kind. */
export interface Registry {
  readonly kinds: readonly KindDefinition[];
  lookup(group: string, kind: string): KindDefinition | undefined;
}

export function createRegistry(kinds: readonly KindDefinition[]): Registry {
  // group -> kind -> definition: looked up for every object, so no key strings are built.
  const byGroup = new Map<string, Map<string, KindDefinition>>();
  for (const def of kinds) {
    let byKind = byGroup.get(def.group);
    if (!byKind) {
      byKind = new Map();
      byGroup.set(def.group, byKind);
    }
    if (byKind.has(def.kind)) throw new DefinitionError(`${kindLabel(def)} is defined twice`);
    byKind.set(def.kind, def);
  }
  return {
    kinds: [...kinds],
    lookup: (group, kind) => byGroup.get(group)?.get(kind),
  };
}

/** The kinds a registry serves, as a message lists them. */
export function servedKinds(registry: Registry): string {
  return registry.kinds.map(kindLabel).join(", ") || "no kinds";
}
