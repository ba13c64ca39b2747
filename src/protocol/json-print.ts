/**
 * JSON text of a value, exactly as `JSON.stringify(value)` writes it, but without recursion
 * and with `bigint` printed as the integer it is. V8's JSON.stringify runs out of stack a few
 * thousand levels down, while the apiserver sends objects nested up to 10,000 levels, and it
 * refuses `bigint`: this printer is the fallback for both, slower, so used only then.
 * A cycle throws a TypeError, as JSON.stringify does.
 */
export function printJson(root: unknown): string | undefined {
  const first = prepare(root, "");
  if (!isContainer(first)) return scalarText(first);
  const frames: Frame[] = [];
  const open = new Set<object>();
  let out = enter(first, frames, open);
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    const { value, keys } = frame;
    if (keys === undefined) {
      const items = value as unknown[];
      if (frame.next === frame.length) {
        out += "]";
        leave(frames, open);
        continue;
      }
      const index = frame.next++;
      const item = prepare(items[index], String(index));
      if (index > 0) out += ",";
      if (isContainer(item)) out += enter(item, frames, open);
      else out += scalarText(item) ?? "null";
    } else {
      if (frame.next === keys.length) {
        out += "}";
        leave(frames, open);
        continue;
      }
      const key = keys[frame.next++]!;
      const item = prepare((value as Record<string, unknown>)[key], key);
      const container = isContainer(item);
      const text = container ? "" : scalarText(item);
      if (!container && text === undefined) continue; // undefined, functions, symbols: left out
      out += `${frame.written ? "," : ""}${JSON.stringify(key)}:`;
      frame.written = true;
      out += container ? enter(item, frames, open) : text;
    }
  }
  return out;
}

interface Frame {
  value: object;
  /** An object's keys; undefined for an array. */
  keys: string[] | undefined;
  length: number;
  next: number;
  written: boolean;
}

function enter(value: object, frames: Frame[], open: Set<object>): string {
  if (open.has(value)) throw new TypeError("Converting circular structure to JSON");
  open.add(value);
  if (Array.isArray(value)) {
    frames.push({ value, keys: undefined, length: value.length, next: 0, written: false });
    return "[";
  }
  const keys = Object.keys(value);
  frames.push({ value, keys, length: keys.length, next: 0, written: false });
  return "{";
}

function leave(frames: Frame[], open: Set<object>): void {
  open.delete(frames.pop()!.value);
}

/** What JSON.stringify would serialize in place of `value` (held under `key`): toJSON's result, primitives unboxed. */
function prepare(value: unknown, key: string): unknown {
  if ((typeof value === "object" && value !== null) || typeof value === "bigint") {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") value = toJSON.call(value, key);
  }
  if (typeof value === "object" && value !== null) {
    if (value instanceof Number) return Number(value);
    if (value instanceof String) return String(value);
    if (value instanceof Boolean || value instanceof BigInt) return value.valueOf();
  }
  return value;
}

function isContainer(value: unknown): value is object {
  return typeof value === "object" && value !== null;
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
