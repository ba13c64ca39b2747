import { type Document, isAlias, isCollection, isPair, isScalar, type Node } from "yaml";

/**
 * Characters (a node counts as 8) that aliases may add to a document once expanded. Far above
 * what anchors in a real manifest repeat; far below what makes printing the objects fail.
 */
export const ALIAS_EXPANSION_LIMIT = 16 * 1024 * 1024;

const NODE_COST = 8;

/**
 * What is wrong with a document's aliases, or undefined: an alias inside the node it names (a
 * cycle no JSON can hold), or aliases that expand past `limit`. `yaml`'s own `maxAliasCount`
 * counts aliases, not what they repeat: 1,000 aliases of a 1 MiB string pass it and print 1 GB.
 * So the expanded size is counted: one walk in document order, iterative (the tree may be
 * deep), each anchored node's size kept for the aliases that follow it.
 */
export function aliasProblem(document: Document, limit = ALIAS_EXPANSION_LIMIT): string | undefined {
  // Anchors in document order: an alias names the last node before it with that anchor.
  const anchors = new Map<string, unknown>();
  const sizes = new Map<unknown, number>();
  let expansion = 0;
  // Post-order by hand: `open` frames wait for their children's sizes.
  const stack: Array<{ node: unknown; open: boolean; size: number; parent: number }> = [
    { node: document.contents, open: false, size: 0, parent: -1 },
  ];
  const add = (index: number, size: number) => {
    if (index >= 0) stack[index]!.size += size;
  };
  while (stack.length > 0) {
    const top = stack.length - 1;
    const frame = stack[top]!;
    if (frame.open) {
      stack.pop();
      if ((frame.node as Node | null)?.anchor !== undefined && !isPair(frame.node)) sizes.set(frame.node, frame.size);
      add(frame.parent, frame.size);
      continue;
    }
    const node = frame.node;
    if (isAlias(node)) {
      stack.pop();
      const target = anchors.get(node.source);
      if (target === undefined) continue; // the parser already reported an unknown anchor
      const size = sizes.get(target);
      if (size === undefined) return `the alias *${node.source} is inside the node it names`;
      expansion += size;
      if (expansion > limit)
        return `its aliases expand to more than ${limit} characters (an alias bomb?); write the values out, or give the objects as JSON`;
      add(frame.parent, size);
      continue;
    }
    if (!isPair(node) && (node as Node | null)?.anchor !== undefined) anchors.set((node as Node).anchor!, node);
    if (isScalar(node)) {
      stack.pop();
      const size = NODE_COST + (typeof node.value === "string" ? node.value.length : 0);
      if (node.anchor !== undefined) sizes.set(node, size);
      add(frame.parent, size);
      continue;
    }
    frame.open = true;
    frame.size = NODE_COST;
    // Children pushed last first, so they are walked in document order.
    const children = isPair(node) ? [node.key, node.value] : isCollection(node) ? node.items : [];
    for (let i = children.length - 1; i >= 0; i--) {
      if (children[i] !== null && children[i] !== undefined)
        stack.push({ node: children[i], open: false, size: 0, parent: top });
    }
  }
  return undefined;
}
