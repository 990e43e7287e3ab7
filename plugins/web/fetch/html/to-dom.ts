/**
 * The bridge from the parsed (and pruned) tree to the DOM turndown renders: a domino document
 * built node by node (no second parse). On the way, links and images get absolute URLs against
 * the page's base, links that go nowhere (javascript:, #fragment, unparsable) lose their href so
 * only their text remains, images without alt text are dropped, and a <pre> always holds one
 * <code> carrying the language of a `language-x`/`lang-x` class; a link without text or image
 * loses its href too. Only the attributes the renderer
 * reads are copied. The tree is at most MAX_DEPTH deep (the parser flattens the rest).
 */
import { createDocument } from '@mixmark-io/domino';
import type { HtmlElement, HtmlNode } from './parse-html.js';

/** The part of the DOM used here and by the rules (the project compiles without the DOM lib). */
export interface DomNode {
  readonly nodeName: string;
  readonly parentNode: DomNode | null;
  readonly nextSibling: DomNode | null;
  textContent: string | null;
  appendChild(node: DomNode): DomNode;
}
export interface DomElement extends DomNode {
  readonly children: ArrayLike<DomElement>;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  /** domino answers undefined, not null, when nothing matches */
  querySelector(selectors: string): DomElement | null | undefined;
}
interface DomDocument {
  createElement(tag: string): DomElement;
  createTextNode(text: string): DomNode;
}

/** Attributes the renderer reads, per tag. */
const KEPT_ATTRS: Record<string, readonly string[]> = {
  ol: ['start'],
  td: ['colspan'],
  th: ['colspan'],
};

function absolute(href: string, base: string): string | null {
  const h = href.trim();
  if (!h || h.startsWith('#') || /^(?:javascript|data|vbscript|about|blob):/i.test(h)) return null;
  try {
    return new URL(h, base).href;
  } catch {
    return null; // not a usable URL: the text is kept without the link
  }
}

function codeLanguage(pre: HtmlElement, code: HtmlElement | undefined): string {
  const classes = `${pre.attrs.class ?? ''} ${code?.attrs.class ?? ''}`;
  return /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(classes)?.[1] ?? '';
}

class Builder {
  readonly #doc: DomDocument;
  readonly #base: string;

  constructor(base: string) {
    this.#doc = createDocument('', true) as DomDocument;
    this.#base = base;
  }

  element(tag: string): DomElement {
    try {
      return this.#doc.createElement(tag);
    } catch {
      return this.#doc.createElement('span'); // a name the DOM refuses (the parser keeps junk like `b<`)
    }
  }

  /** Appends the copies of `nodes`; adjacent texts (around a dropped image) become one text node. */
  appendChildren(target: DomNode, nodes: readonly HtmlNode[]): void {
    let text: DomNode | null = null;
    for (const node of nodes) {
      if (node.type === 'text') {
        if (text) text.textContent = `${text.textContent ?? ''}${node.text}`;
        else text = target.appendChild(this.#doc.createTextNode(node.text));
        continue;
      }
      const built = this.build(node);
      if (!built) continue;
      const isText = built.nodeName === '#text';
      if (isText && text) {
        text.textContent = `${text.textContent ?? ''}${built.textContent ?? ''}`;
        continue;
      }
      target.appendChild(built);
      text = isText ? built : null;
    }
  }

  build(el: HtmlElement): DomNode | null {
    if (el.tag === 'img') return this.image(el);
    if (el.tag === 'pre') return this.pre(el);
    const out = this.element(el.tag);
    for (const name of KEPT_ATTRS[el.tag] ?? []) {
      const value = el.attrs[name];
      if (value !== undefined) out.setAttribute(name, value);
    }
    this.appendChildren(out, el.children);
    if (el.tag === 'a') {
      const href = absolute(el.attrs.href ?? '', this.#base);
      // a link with neither text nor image (an icon drawn by CSS) would be an empty `[](url)`
      if (href && (out.textContent?.trim() || out.querySelector('img'))) out.setAttribute('href', href);
    }
    return out;
  }

  image(el: HtmlElement): DomNode | null {
    const alt = (el.attrs.alt ?? '').replace(/\s+/g, ' ').trim();
    if (!alt) return null; // decoration
    const src = absolute(el.attrs.src ?? '', this.#base);
    if (!src) return this.#doc.createTextNode(alt);
    const img = this.element('img');
    img.setAttribute('alt', alt);
    img.setAttribute('src', src);
    return img;
  }

  pre(el: HtmlElement): DomNode {
    const elements = el.children.filter((c): c is HtmlElement => c.type === 'element');
    const onlyCode =
      elements.length === 1 &&
      elements[0]?.tag === 'code' &&
      el.children.every((c) => c.type === 'element' || c.text.trim() === '');
    const source = onlyCode ? (elements[0] as HtmlElement) : el;
    const pre = this.element('pre');
    const code = this.element('code');
    const language = codeLanguage(el, onlyCode ? elements[0] : undefined);
    if (language) code.setAttribute('class', `language-${language}`);
    this.appendChildren(code, source.children);
    // HTML drops the newline right after <pre>
    code.textContent = (code.textContent ?? '').replace(/^\n/, '');
    pre.appendChild(code);
    return pre;
  }
}

/** A DOM copy of `root`'s content inside a <div>, URLs resolved against `base`. */
export function toDom(root: HtmlElement, base: string): DomElement {
  const builder = new Builder(base);
  const container = builder.element('div');
  builder.appendChildren(container, root.children);
  return container;
}
