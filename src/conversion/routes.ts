import type { Converter, Schema } from "./converter";

/** One converter call in a chain, with the schema its output must satisfy. */
export interface Step {
  from: string;
  to: string;
  convert: Converter<Schema, Schema>;
  schema: Schema;
}

export type Route = readonly Step[];

interface Edge {
  from: string;
  to: string;
  convert: Converter<Schema, Schema>;
}

/**
 * Breadth-first search from every version: the fewest converter calls win, and among equally
 * short chains the one whose converters were declared first, so routing is deterministic.
 * Hub-and-spoke and adjacent-version chains are both just graphs here. Versions are few
 * (a handful), so all pairs are computed once at definition time.
 */
export function computeRoutes(
  versions: string[],
  edges: Edge[],
  schemas: ReadonlyMap<string, Schema>,
): { routes: Map<string, Map<string, Route>>; unreachable: Array<[string, string]> } {
  const outgoing = new Map<string, Edge[]>(versions.map((v) => [v, []]));
  for (const edge of edges) outgoing.get(edge.from)!.push(edge);

  const routes = new Map<string, Map<string, Route>>();
  const unreachable: Array<[string, string]> = [];
  for (const start of versions) {
    const found = new Map<string, Route>([[start, []]]);
    const queue = [start];
    while (queue.length > 0) {
      const at = queue.shift()!;
      for (const edge of outgoing.get(at)!) {
        if (found.has(edge.to)) continue;
        found.set(edge.to, [...found.get(at)!, { ...edge, schema: schemas.get(edge.to)! }]);
        queue.push(edge.to);
      }
    }
    found.delete(start);
    routes.set(start, found);
    for (const target of versions) {
      if (target !== start && !found.has(target)) unreachable.push([start, target]);
    }
  }
  return { routes, unreachable };
}
