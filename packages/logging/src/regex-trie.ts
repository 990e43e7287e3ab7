/**
 * Many alternatives merged into one regex source by their common prefixes (a trie), so the regex
 * engine decides on the first character instead of trying every alternative at every position.
 */
import type { Atom } from './secret-forms.js';

interface TrieNode {
  end: boolean;
  next: Map<Atom, TrieNode>;
}

function node(): TrieNode {
  return { end: false, next: new Map() };
}

/** The source of what may follow `n`: chains of single children are walked in a loop, not recursed. */
function source(n: TrieNode): string {
  let prefix = '';
  let at = n;
  while (!at.end && at.next.size === 1) {
    const [atom, child] = at.next.entries().next().value as [Atom, TrieNode];
    prefix += atom;
    at = child;
  }
  if (at.next.size === 0) return prefix;
  const branches = [...at.next].map(([atom, child]) => atom + source(child));
  // greedy `?`: the longer form wins over a form that is its prefix
  const group = `(?:${branches.join('|')})`;
  return prefix + (at.end ? `${group}?` : group);
}

/** One regex source matching any of `forms` (each a list of atoms); '' when there are none. */
export function trieSource(forms: readonly (readonly Atom[])[]): string {
  const root = node();
  for (const form of forms) {
    if (form.length === 0) continue;
    let at = root;
    for (const atom of form) {
      let child = at.next.get(atom);
      if (!child) {
        child = node();
        at.next.set(atom, child);
      }
      at = child;
    }
    at.end = true;
  }
  return root.next.size === 0 ? '' : source(root);
}
