/** A field's path as crdshift prints it: `spec.hostPort`, `spec.rules[0]`, other keys in brackets: `spec["x.y"]`. */
export function joinPath(path: string, key: string): string {
  if (/^[A-Za-z_$][\w$-]*$/.test(key)) return path ? `${path}.${key}` : key;
  return `${path}[${JSON.stringify(key)}]`;
}
