/** The line of a field such as `requires_env[0].name` in a YAML text: for errors that name file, line and field. */
import { isMap, isNode, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';

/** `a.b[2].c` as path segments: `['a', 'b', 2, 'c']`. */
function segments(field: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const part of field.split('.')) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) return [];
    if (m[1]) out.push(m[1]);
    for (const index of m[2]?.match(/\d+/g) ?? []) out.push(Number(index));
  }
  return out;
}

/** 1-based line where `field` is in `text`, or null when the text does not parse or the field is not there. */
export function yamlFieldLine(text: string, field: string): number | null {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter });
  if (doc.errors.length > 0) return null;
  const path = segments(field);
  if (path.length === 0) return null;
  let node: unknown = doc.contents;
  let start: number | undefined;
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find(
        (item) => (isScalar(item.key) ? String(item.key.value) : String(item.key)) === segment,
      );
      if (pair === undefined) return null;
      start = isNode(pair.key) ? pair.key.range?.[0] : undefined;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      const item = node.items[segment];
      if (item === undefined) return null;
      start = isNode(item) ? item.range?.[0] : undefined;
      node = item;
    } else {
      return null;
    }
  }
  return start === undefined ? null : lineCounter.linePos(start).line;
}
