import type { KindDefinition, Registry } from "../conversion";

type Route = NonNullable<ReturnType<KindDefinition["route"]>>;

/**
 * The candidate as the shadow runs it for one review: every converter call after the first
 * waits for a turn of the event loop. The engine converts a review's objects one after another
 * in one go when its converters answer at once; paced, a live request that arrived meanwhile
 * waits behind one object's conversion at most, not a whole LIST's. The first call runs at once:
 * the shadow starts in a turn of its own, and a review of one object (a read) costs no turn.
 * The converters, and so the candidate's answers, are its own.
 */
export function pacedRegistry(registry: Registry, nextTurn: () => Promise<void>): Registry {
  let called = false;
  const pace: Pace = (convert, object, context) => {
    if (called) return nextTurn().then(() => convert(object, context));
    called = true;
    return convert(object, context);
  };
  const kinds = new Map<KindDefinition, KindDefinition>();
  const paced = (kind: KindDefinition): KindDefinition => {
    let wrapped = kinds.get(kind);
    if (!wrapped) {
      wrapped = pacedKind(kind, pace);
      kinds.set(kind, wrapped);
    }
    return wrapped;
  };
  return {
    kinds: registry.kinds.map(paced),
    lookup: (group, kind) => {
      const found = registry.lookup(group, kind);
      return found && paced(found);
    },
  };
}

type Convert = Route[number]["convert"];
type Pace = (convert: Convert, ...call: Parameters<Convert>) => ReturnType<Convert>;

function pacedKind(kind: KindDefinition, pace: Pace): KindDefinition {
  // One paced route per pair, made when first asked for: the engine asks once per object.
  const routes = new Map<string, Route | undefined>();
  return {
    group: kind.group,
    kind: kind.kind,
    versions: kind.versions,
    ...(kind.refusals ? { refusals: kind.refusals } : {}),
    ...(kind.emptyIsAbsent ? { emptyIsAbsent: kind.emptyIsAbsent } : {}),
    route: (from, to) => {
      const pair = `${from}\n${to}`;
      if (!routes.has(pair)) {
        const route = kind.route(from, to);
        routes.set(
          pair,
          route?.map((step) => ({
            ...step,
            convert: (object, context) => pace(step.convert, object, context),
          })),
        );
      }
      return routes.get(pair);
    },
  };
}
