/** Maps key paths to line numbers in a parsed YAML document. */
import { type Document, isMap, isNode, isScalar, isSeq, type LineCounter } from 'yaml';
import type { KeyPath } from './schema-walk.js';

/** 1-based line where `node` starts, or null when it has no source range. */
export function nodeLine(node: unknown, lineCounter: LineCounter): number | null {
  const range = isNode(node) ? node.range : undefined;
  return range ? lineCounter.linePos(range[0]).line : null;
}

/** String form of a mapping key node. */
export function keyText(key: unknown): string {
  return isScalar(key) ? String(key.value) : String(key);
}

/**
 * Line of the deepest existing node on `path`: the key's own line for mapping entries, the item's
 * line for list entries. A missing key yields the line of its nearest existing parent.
 */
export function lineOfPath(doc: Document, path: KeyPath, lineCounter: LineCounter): number | null {
  let node: unknown = doc.contents;
  let line = nodeLine(node, lineCounter) ?? 1;
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => keyText(item.key) === String(segment));
      if (pair === undefined) break;
      line = nodeLine(pair.key, lineCounter) ?? line;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      const item = node.items[segment];
      if (item === undefined) break;
      line = nodeLine(item, lineCounter) ?? line;
      node = item;
    } else {
      break;
    }
  }
  return line;
}
