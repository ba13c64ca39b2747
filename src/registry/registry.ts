import { DefinitionError, type KindDefinition } from "./kind";

/** Every kind one webhook URL serves, looked up by API group and kind. */
export interface Registry {
  readonly kinds: readonly KindDefinition[];
  lookup(group: string, kind: string): KindDefinition | undefined;
}

export function createRegistry(kinds: readonly KindDefinition[]): Registry {
  const byKey = new Map<string, KindDefinition>();
  for (const def of kinds) {
    const key = `${def.kind}.${def.group}`;
    if (byKey.has(key)) throw new DefinitionError(`${key} is defined twice`);
    byKey.set(key, def);
  }
  return {
    kinds: [...kinds],
    lookup: (group, kind) => byKey.get(`${kind}.${group}`),
  };
}
