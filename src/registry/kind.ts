import { kindLabel } from "../protocol/api-version";
import { DNS_LABEL_1035, DNS_LABEL_MAX, DNS_SUBDOMAIN, DNS_SUBDOMAIN_MAX } from "../protocol/names";
import type { Converter, ConverterMap, Schema } from "./converter";
import { computeRoutes, type Route } from "./routes";

export interface KindSpec<V extends Record<string, Schema>> {
  /** The CRD's `spec.group`, e.g. `example.com`. */
  group: string;
  /** The CRD's `spec.names.kind`, e.g. `CronTab`. */
  kind: string;
  /** Every version the CRD lists, each with the schema of the whole object in that version. */
  versions: V;
  converters: ConverterMap<V>;
}

export interface KindDefinition {
  readonly group: string;
  readonly kind: string;
  readonly versions: ReadonlyMap<string, Schema>;
  /** The shortest chain of converters for every ordered pair of distinct versions. */
  route(from: string, to: string): Route | undefined;
}

export class DefinitionError extends Error {
  override name = "DefinitionError";
}

const KIND = /^[A-Za-z][A-Za-z0-9]*$/;

/**
 * Declares one kind: its versions and the converters between them. Everything that can be
 * wrong with a definition fails here, at module load, never on a request: bad names, converters
 * naming unknown versions, and any pair of versions that no chain of converters connects.
 */
export function defineKind<const V extends Record<string, Schema>>(spec: KindSpec<V>): KindDefinition {
  const { group, kind } = spec;
  const label = kindLabel({ kind, group });
  if (
    typeof group !== "string" ||
    !DNS_SUBDOMAIN.test(group) ||
    group.length > DNS_SUBDOMAIN_MAX ||
    !group.includes(".")
  ) {
    throw new DefinitionError(`${label}: group must be a DNS subdomain with at least one dot, like "example.com"`);
  }
  if (typeof kind !== "string" || !KIND.test(kind)) {
    throw new DefinitionError(`${label}: kind must be a CamelCase name like "CronTab"`);
  }
  const versions = new Map<string, Schema>();
  for (const [name, schema] of Object.entries(spec.versions ?? {})) {
    if (!DNS_LABEL_1035.test(name) || name.length > DNS_LABEL_MAX) {
      throw new DefinitionError(`${label}: version name "${name}" is not a valid CRD version name (like "v1beta1")`);
    }
    if (typeof (schema as { _zod?: unknown })?._zod !== "object") {
      throw new DefinitionError(`${label}: version ${name} needs a zod schema`);
    }
    versions.set(name, schema);
  }
  if (versions.size === 0) throw new DefinitionError(`${label}: at least one version is required`);

  const edges: Array<{ from: string; to: string; convert: Converter<Schema, Schema> }> = [];
  for (const [from, targets] of Object.entries(spec.converters ?? {})) {
    if (!versions.has(from)) {
      throw new DefinitionError(
        `${label}: converters from "${from}", which is not one of its versions (${[...versions.keys()].join(", ")})`,
      );
    }
    for (const [to, convert] of Object.entries(targets ?? {})) {
      if (!versions.has(to)) {
        throw new DefinitionError(
          `${label}: converter ${from} -> ${to} names "${to}", which is not one of its versions`,
        );
      }
      if (to === from) throw new DefinitionError(`${label}: converter ${from} -> ${to} converts a version to itself`);
      if (typeof convert !== "function")
        throw new DefinitionError(`${label}: converter ${from} -> ${to} is not a function`);
      edges.push({ from, to, convert: convert as Converter<Schema, Schema> });
    }
  }

  const { routes, unreachable } = computeRoutes([...versions.keys()], edges, versions);
  if (unreachable.length > 0) {
    const pairs = unreachable.map(([a, b]) => `${a} -> ${b}`).join(", ");
    throw new DefinitionError(
      `${label}: no chain of converters for ${pairs}; every version must reach every other one`,
    );
  }
  return {
    group,
    kind,
    versions,
    route: (from, to) => routes.get(from)?.get(to),
  };
}
