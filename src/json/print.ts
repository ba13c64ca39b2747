/**
 * JSON text of a value, exactly as `JSON.stringify(value)` writes it, but without recursion
 * and with `bigint` printed as the integer it is. V8's JSON.stringify runs out of stack a few
 * thousand levels down, and takes a time that grows with the square of the depth well before,
 * while the apiserver sends objects nested up to 10,000 levels: deep values are printed here.
 * A cycle throws a TypeError, as JSON.stringify does.
 */
export function printJson(root: unknown): string | undefined {
  const first = prepare(root, "");
  if (typeof first !== "object" || first === null) return scalarText(first);
  const out = new Output();
  // The open containers, innermost last, in parallel arrays: no object per container, which
  // matters when there are millions of them.
  const values: object[] = [];
  const keyLists: Array<string[] | undefined> = [];
  const positions: number[] = [];
  const written: boolean[] = [];
  // Cycles: any cycle makes the descent endless, so the open containers are only tracked
  // below CYCLE_WATCH levels, where a cycle shows within twice its length.
  let watched: Set<object> | undefined;
  const enter = (value: object) => {
    if (values.length >= CYCLE_WATCH) {
      watched ??= new Set();
      if (watched.has(value)) throw new TypeError("Converting circular structure to JSON");
      watched.add(value);
    }
    const keys = Array.isArray(value) ? undefined : Object.keys(value);
    values.push(value);
    keyLists.push(keys);
    positions.push(0);
    written.push(false);
    out.add(keys ? "{" : "[");
  };
  enter(first);
  while (values.length > 0) {
    const top = values.length - 1;
    const value = values[top]!;
    const keys = keyLists[top];
    const next = positions[top]!;
    const length = keys ? keys.length : (value as unknown[]).length;
    if (next === length) {
      out.add(keys ? "}" : "]");
      if (top >= CYCLE_WATCH) watched!.delete(value);
      values.pop();
      keyLists.pop();
      positions.pop();
      written.pop();
      continue;
    }
    positions[top] = next + 1;
    if (keys === undefined) {
      const item = prepare((value as unknown[])[next], next);
      if (next > 0) out.add(",");
      if (typeof item === "object" && item !== null) enter(item);
      else out.add(scalarText(item) ?? "null");
    } else {
      const key = keys[next]!;
      const item = prepare((value as Record<string, unknown>)[key], key);
      const container = typeof item === "object" && item !== null;
      const text = container ? "" : scalarText(item);
      if (text === undefined) continue; // undefined, functions, symbols: left out
      out.add(written[top] ? `,${JSON.stringify(key)}:` : `${JSON.stringify(key)}:`);
      written[top] = true;
      if (container) enter(item as object);
      else out.add(text);
    }
  }
  return out.text();
}

const CYCLE_WATCH = 10_000;

/**
 * The text as it grows, in flat chunks: a string built by `+=` alone is a tree of millions of
 * pieces that all stay alive (and keep the collector busy) until the end.
 */
class Output {
  private chunks: string[] = [];
  private pieces: string[] = [];

  add(text: string): void {
    if (this.pieces.push(text) === 4096) {
      this.chunks.push(this.pieces.join(""));
      this.pieces.length = 0;
    }
  }

  text(): string {
    this.chunks.push(this.pieces.join(""));
    return this.chunks.join("");
  }
}

/** What JSON.stringify would serialize in place of `value` (held under `key`): toJSON's result, primitives unboxed. */
function prepare(value: unknown, key: string | number): unknown {
  if ((typeof value !== "object" || value === null) && typeof value !== "bigint") return value;
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === "function") value = toJSON.call(value, String(key));
  // Plain objects and arrays (nearly everything) need no further look.
  if (
    typeof value !== "object" ||
    value === null ||
    Array.isArray(value) ||
    Object.getPrototypeOf(value) === Object.prototype
  )
    return value;
  if (value instanceof Number) return Number(value);
  if (value instanceof String) return String(value);
  if (value instanceof Boolean || value instanceof BigInt) return value.valueOf();
  return value;
}

function scalarText(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? String(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      return value.toString();
    case "object":
      return "null"; // only null reaches here
    default:
      return undefined;
  }
}
