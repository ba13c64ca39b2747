import { objectPrototypeIsPolluted } from "./polluted-prototype";

/**
 * What a walk of a parsed JSON value finds: how deeply it nests, whether a key is named
 * `__proto__`, and whether a number may stand for one JSON.parse could not hold.
 */
export interface TreeShape {
  /** A scalar 0, `[]` 1: the same count as `scanBody`'s. */
  depth: number;
  /** Whether an object anywhere has an own key `__proto__` (JSON.parse makes one from `"__proto__":`). */
  protoKey: boolean;
  /**
   * Whether a number is 0 or not finite: what JSON.parse makes of a number beyond a double's
   * range (`1e-400`, `1e400`), and of nothing else that numbers.ts would change
   * but an integer of 16 digits or more.
   */
  edgeNumber: boolean;
  /**
   * Whether a number's magnitude is 2^53 or more: what JSON.parse makes of an integer beyond
   * ±2^53 (rounded), the only other number numbers.ts would change.
   */
  largeNumber: boolean;
}

/**
 * One walk of a parsed value for its depth and its `__proto__` keys. Recursive while shallow
 * (faster than a walk with its own stack, and every real object is), iterative below
 * that: V8's JSON.parse accepts any depth, so this must too.
 */
export function treeShape(root: unknown): TreeShape {
  const shape: TreeShape = { depth: 0, protoKey: false, edgeNumber: false, largeNumber: false };
  inheritedKeys = objectPrototypeIsPolluted();
  if (typeof root === "object" && root !== null) walkShallow(root, 1, shape);
  else if (typeof root === "number") noteNumber(root, shape);
  return shape;
}

/** How deeply a parsed JSON value nests (a scalar 0, `[]` 1), the same count as `scanBody`'s. */
export function treeDepth(root: unknown): number {
  return treeShape(root).depth;
}

const RECURSION_LIMIT = 64;
/** Set by each walk: for-in then yields keys that are not the object's own (polluted-prototype.ts). */
let inheritedKeys = false;

function walkShallow(value: object, depth: number, shape: TreeShape): void {
  if (depth > shape.depth) shape.depth = depth;
  if (depth === RECURSION_LIMIT) return walkDeep(value, depth, shape);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === "object" && item !== null) walkShallow(item, depth + 1, shape);
      else if (typeof item === "number") noteNumber(item, shape);
    }
    return;
  }
  for (const key in value) {
    if (inheritedKeys && !Object.hasOwn(value, key)) continue;
    if (key === "__proto__") shape.protoKey = true;
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === "object" && item !== null) walkShallow(item, depth + 1, shape);
    else if (typeof item === "number") noteNumber(item, shape);
  }
}

/**
 * Notes a number that may stand for one JSON.parse could not hold. Most numbers are neither:
 * one comparison each (NaN is no JSON value).
 */
function noteNumber(item: number, shape: TreeShape): void {
  if (item < TWO_TO_53 && item > -TWO_TO_53 && item !== 0) return;
  // 0 (or -0), ±Infinity: `item - item` is 0 for every other number.
  if (item === 0 || item - item !== 0) shape.edgeNumber = true;
  else shape.largeNumber = true;
}

const TWO_TO_53 = 2 ** 53;

function walkDeep(root: object, rootDepth: number, shape: TreeShape): void {
  const values: object[] = [root];
  const depths: number[] = [rootDepth];
  while (values.length > 0) {
    const value = values.pop() as Record<string, unknown>;
    const depth = depths.pop()!;
    if (depth > shape.depth) shape.depth = depth;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (typeof item === "object" && item !== null) {
          values.push(item as Record<string, unknown>);
          depths.push(depth + 1);
        } else if (typeof item === "number") noteNumber(item, shape);
      }
    } else {
      for (const key in value) {
        if (inheritedKeys && !Object.hasOwn(value, key)) continue;
        if (key === "__proto__") shape.protoKey = true;
        const item = value[key];
        if (typeof item === "object" && item !== null) {
          values.push(item as Record<string, unknown>);
          depths.push(depth + 1);
        } else if (typeof item === "number") noteNumber(item, shape);
      }
    }
  }
}
