/**
 * Whether `Object.prototype` has an enumerable property: something in the process polluted it.
 * The walks of parsed trees read keys with for-in (cheaper than Object.keys), and for-in
 * also yields inherited keys: an inherited object holds itself, so a walk would never end. They
 * ask this once per walk and then skip what is not the object's own.
 */
export function objectPrototypeIsPolluted(): boolean {
  for (const _ in {}) return true;
  return false;
}
