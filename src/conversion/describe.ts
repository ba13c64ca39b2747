import { clip, isJsonObject } from "../json";

/**
 * How a failure names an object, for the person reading `kubectl` output:
 * `object 3 (default/broken, uid 1f2…)`. Index first: it is all a fragment may have. Each name is
 * clipped: the message goes to logs and to every client of the resource.
 */
export function describeObject(index: number, object: unknown): string {
  const metadata = isJsonObject(object) && isJsonObject(object.metadata) ? object.metadata : undefined;
  const name = text(metadata?.name);
  const namespace = text(metadata?.namespace);
  const uid = text(metadata?.uid);
  const who = name ? (namespace ? `${namespace}/${name}` : name) : "no name";
  return `object ${index} (${who}${uid ? `, uid ${uid}` : ""})`;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? clip(value) : undefined;
}
