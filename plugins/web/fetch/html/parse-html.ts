/**
 * A small, forgiving HTML parser: a tokenizer (tags with quoted or bare attributes, comments,
 * doctype, CDATA, raw-text elements such as script and style) feeding a tree builder that knows
 * void elements, the end tags HTML lets authors omit (p, li, dt/dd, table parts, option) and
 * stray end tags. It is not the full HTML5 algorithm, but it keeps every text in the right block,
 * which is what turning a page into Markdown needs. Nesting deeper than MAX_DEPTH is flattened.
 */
import { decodeEntities } from './entities.js';

export interface HtmlElement {
  type: 'element';
  /** lower case */
  tag: string;
  /** names lower case, values decoded; the first of a repeated attribute wins */
  attrs: Record<string, string>;
  children: HtmlNode[];
  parent: HtmlElement | null;
}

export interface HtmlText {
  type: 'text';
  text: string;
}

export type HtmlNode = HtmlElement | HtmlText;

/** Elements deeper than this are not opened: their content joins the enclosing one. */
export const MAX_DEPTH = 256;

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/** Elements whose content is raw text up to their end tag (`title` and `textarea` still decode entities). */
const RAW_TEXT = new Set([
  'script',
  'style',
  'textarea',
  'title',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  'noscript',
  'plaintext',
]);
const ESCAPABLE_RAW = new Set(['title', 'textarea']);

/** Opening one of these closes an open <p> (HTML's "close a p element" rule). */
const CLOSES_P = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'details',
  'dialog',
  'div',
  'dl',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'ul',
  'summary',
]);

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Where the search for an element to close implicitly stops. */
const SCOPE_BOUNDARY = new Set(['html', 'table', 'td', 'th', 'caption', 'template', 'button', 'object', 'marquee']);

/** Opening `key` closes the nearest open element of these tags (and all inside it), not searching past `stop`. */
const IMPLIED_CLOSE: Record<string, { close: ReadonlySet<string>; stop: ReadonlySet<string> }> = {
  li: { close: new Set(['li']), stop: new Set(['ul', 'ol', 'menu', ...SCOPE_BOUNDARY]) },
  dt: { close: new Set(['dt', 'dd']), stop: new Set(['dl', ...SCOPE_BOUNDARY]) },
  dd: { close: new Set(['dt', 'dd']), stop: new Set(['dl', ...SCOPE_BOUNDARY]) },
  tr: { close: new Set(['tr']), stop: new Set(['table', 'thead', 'tbody', 'tfoot']) },
  td: { close: new Set(['td', 'th']), stop: new Set(['tr', 'table']) },
  th: { close: new Set(['td', 'th']), stop: new Set(['tr', 'table']) },
  thead: { close: new Set(['thead', 'tbody', 'tfoot']), stop: new Set(['table']) },
  tbody: { close: new Set(['thead', 'tbody', 'tfoot']), stop: new Set(['table']) },
  tfoot: { close: new Set(['thead', 'tbody', 'tfoot']), stop: new Set(['table']) },
  option: { close: new Set(['option']), stop: new Set(['select', 'datalist', ...SCOPE_BOUNDARY]) },
  a: { close: new Set(['a']), stop: SCOPE_BOUNDARY },
};

const NAME_END = /[\s/>]/;

class TreeBuilder {
  readonly root: HtmlElement = { type: 'element', tag: '#document', attrs: {}, children: [], parent: null };
  #stack: HtmlElement[] = [this.root];

  get current(): HtmlElement {
    return this.#stack[this.#stack.length - 1] ?? this.root;
  }

  text(text: string): void {
    if (text === '') return;
    const last = this.current.children[this.current.children.length - 1];
    if (last?.type === 'text') last.text += text;
    else this.current.children.push({ type: 'text', text });
  }

  /** Pops up to and including the nearest open element in `tags`, not searching past `stop`. */
  #closeNearest(tags: ReadonlySet<string>, stop: ReadonlySet<string>): void {
    for (let i = this.#stack.length - 1; i > 0; i--) {
      const tag = this.#stack[i]?.tag ?? '';
      if (tags.has(tag)) {
        this.#stack.length = i;
        return;
      }
      if (stop.has(tag)) return;
    }
  }

  open(tag: string, attrs: Record<string, string>, selfClosing: boolean): void {
    if (CLOSES_P.has(tag)) this.#closeNearest(new Set(['p']), SCOPE_BOUNDARY);
    if (HEADINGS.has(tag) && HEADINGS.has(this.current.tag)) this.#stack.pop();
    const implied = IMPLIED_CLOSE[tag];
    if (implied) this.#closeNearest(implied.close, implied.stop);
    if (this.#stack.length > MAX_DEPTH && !VOID.has(tag)) return;
    const element: HtmlElement = { type: 'element', tag, attrs, children: [], parent: this.current };
    this.current.children.push(element);
    if (!VOID.has(tag) && !selfClosing) this.#stack.push(element);
  }

  close(tag: string): void {
    if (tag === 'br') {
      this.open('br', {}, true);
      return;
    }
    for (let i = this.#stack.length - 1; i > 0; i--) {
      if (this.#stack[i]?.tag === tag) {
        this.#stack.length = i;
        return;
      }
    }
    // a stray end tag: ignored, as browsers do
  }
}

/** Reads the attributes of a start tag from `from`; returns them, where the tag ends and whether it self-closes. */
function readAttributes(
  html: string,
  from: number,
): { attrs: Record<string, string>; end: number; selfClosing: boolean } {
  const attrs: Record<string, string> = {};
  let i = from;
  let selfClosing = false;
  const n = html.length;
  while (i < n) {
    const c = html[i] ?? '';
    if (c === '>') return { attrs, end: i + 1, selfClosing };
    if (c === '/') {
      selfClosing = html[i + 1] === '>';
      i++;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    let j = i;
    while (j < n && !/[\s/>=]/.test(html[j] ?? '')) j++;
    if (j === i) j++; // a lone "=": skip it
    const name = html.slice(i, j).toLowerCase();
    i = j;
    while (i < n && /\s/.test(html[i] ?? '')) i++;
    let value = '';
    if (html[i] === '=') {
      i++;
      while (i < n && /\s/.test(html[i] ?? '')) i++;
      const quote = html[i];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, i + 1);
        const stop = close < 0 ? n : close;
        value = html.slice(i + 1, stop);
        i = stop + 1;
      } else {
        let k = i;
        while (k < n && !/[\s>]/.test(html[k] ?? '')) k++;
        value = html.slice(i, k);
        i = k;
      }
    }
    if (name && !(name in attrs)) attrs[name] = decodeEntities(value, true);
  }
  return { attrs, end: n, selfClosing };
}

const END_TAG_SEARCH = new Map<string, RegExp>();

/** Where `</tag` (any case) starts at or after `from`, or -1. */
function indexOfEndTag(html: string, tag: string, from: number): number {
  let re = END_TAG_SEARCH.get(tag);
  if (!re) {
    re = new RegExp(`</${tag}(?=[\\s/>]|$)`, 'gi');
    END_TAG_SEARCH.set(tag, re);
  }
  re.lastIndex = from;
  return re.exec(html)?.index ?? -1;
}

/** Parses a whole document (or fragment) into a tree under a `#document` root. */
export function parseHtml(html: string): HtmlElement {
  const tree = new TreeBuilder();
  const n = html.length;
  let i = 0;
  while (i < n) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      tree.text(decodeEntities(html.slice(i)));
      break;
    }
    if (lt > i) tree.text(decodeEntities(html.slice(i, lt)));
    const next = html[lt + 1] ?? '';
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      i = end < 0 ? n : end + 3;
    } else if (html.startsWith('<![CDATA[', lt)) {
      const end = html.indexOf(']]>', lt + 9);
      tree.text(html.slice(lt + 9, end < 0 ? n : end));
      i = end < 0 ? n : end + 3;
    } else if (next === '!' || next === '?') {
      const end = html.indexOf('>', lt);
      i = end < 0 ? n : end + 1;
    } else if (next === '/') {
      const m = /^<\/([A-Za-z][^\s/>]*)[^>]*>/.exec(html.slice(lt, lt + 256));
      if (m?.[1]) {
        tree.close(m[1].toLowerCase());
        i = lt + m[0].length;
      } else {
        const end = html.indexOf('>', lt);
        i = end < 0 ? n : end + 1; // `</ >` and the like: a bogus comment
      }
    } else if (/[A-Za-z]/.test(next)) {
      let j = lt + 1;
      while (j < n && !NAME_END.test(html[j] ?? '')) j++;
      const tag = html.slice(lt + 1, j).toLowerCase();
      const { attrs, end, selfClosing } = readAttributes(html, j);
      tree.open(tag, attrs, selfClosing);
      i = end;
      if (RAW_TEXT.has(tag) && !selfClosing) {
        const close = tag === 'plaintext' ? -1 : indexOfEndTag(html, tag, i);
        const stop = close < 0 ? n : close;
        const raw = html.slice(i, stop);
        tree.text(ESCAPABLE_RAW.has(tag) ? decodeEntities(raw) : raw);
        if (close >= 0) {
          const gt = html.indexOf('>', close);
          i = gt < 0 ? n : gt + 1;
        } else i = n;
        tree.close(tag);
      }
    } else {
      tree.text('<');
      i = lt + 1;
    }
  }
  return tree.root;
}

/** The first element (depth-first, document order) matching `test`, or null. */
export function findElement(root: HtmlElement, test: (el: HtmlElement) => boolean): HtmlElement | null {
  const stack: HtmlElement[] = [root];
  while (stack.length > 0) {
    const el = stack.pop();
    if (!el) break;
    if (el !== root && test(el)) return el;
    for (let i = el.children.length - 1; i >= 0; i--) {
      const child = el.children[i];
      if (child?.type === 'element') stack.push(child);
    }
  }
  return null;
}

/** Every element matching `test`, in document order. */
export function findAll(root: HtmlElement, test: (el: HtmlElement) => boolean): HtmlElement[] {
  const out: HtmlElement[] = [];
  const stack: HtmlElement[] = [root];
  while (stack.length > 0) {
    const el = stack.pop();
    if (!el) break;
    if (el !== root && test(el)) out.push(el);
    for (let i = el.children.length - 1; i >= 0; i--) {
      const child = el.children[i];
      if (child?.type === 'element') stack.push(child);
    }
  }
  return out;
}

/** The text of an element and its descendants, as written (no whitespace collapsing). */
export function textContent(node: HtmlNode): string {
  if (node.type === 'text') return node.text;
  let out = '';
  const stack: HtmlNode[] = [node];
  while (stack.length > 0) {
    const n = stack.pop();
    if (!n) break;
    if (n.type === 'text') out += n.text;
    else for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i] as HtmlNode);
  }
  return out;
}
