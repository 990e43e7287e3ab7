/**
 * How deep a YAML text nests its flow collections (`[...]`, `{...}`), found by one pass over the
 * characters, before any parser sees it. The yaml parser builds nested collections recursively: a
 * document like `x: [[[[...` 20,000 deep runs it to the end of the stack, and on Node 20 a regular
 * expression compiled that close to the stack's end can abort the whole process ("RegExpCompiler
 * Allocation failed") instead of throwing. Every YAML file the gateway reads (config.yaml,
 * plugin.yaml, HOOK.yaml) is checked here first, so such a file is refused with a message instead.
 */

/** Nesting no real configuration file comes near; anything deeper is refused before parsing. */
export const MAX_YAML_NESTING = 64;

/** Characters after which a quote opens a quoted scalar (elsewhere it belongs to a plain scalar: `don't`). */
const BEFORE_QUOTE = new Set([' ', '\t', '\n', '\r', '[', '{', ',', ':', '-', '?', '!', '&', '|', '>']);

/**
 * The 1-based line where the flow nesting first goes deeper than `limit`, or null when it never
 * does. Quoted scalars and comments are skipped; brackets inside plain scalars count, which can
 * only over-count by the few a real file has.
 */
export function yamlNestingTooDeep(text: string, limit: number = MAX_YAML_NESTING): number | null {
  let depth = 0;
  let line = 1;
  let previous = '\n';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') {
      line++;
    } else if (c === '#' && (previous === ' ' || previous === '\t' || previous === '\n')) {
      const end = text.indexOf('\n', i);
      if (end === -1) return null;
      i = end - 1;
    } else if ((c === '"' || c === "'") && BEFORE_QUOTE.has(previous)) {
      // to the closing quote: '' is an escaped quote in single quotes, \x an escape in double quotes
      let j = i + 1;
      for (; j < text.length; j++) {
        const q = text[j];
        if (q === '\n') line++;
        else if (c === '"' && q === '\\') j++;
        else if (q === c) {
          if (c === "'" && text[j + 1] === "'") j++;
          else break;
        }
      }
      i = j;
    } else if (c === '[' || c === '{') {
      depth++;
      if (depth > limit) return line;
    } else if ((c === ']' || c === '}') && depth > 0) {
      depth--;
    }
    previous = text[i] ?? '';
  }
  return null;
}
