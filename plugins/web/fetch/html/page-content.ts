/**
 * Finding what a page is about: its metadata (title, description, language, canonical URL, ...),
 * and its main content with the furniture removed: scripts and styles, navigation, site headers
 * and footers, sidebars, cookie banners, share bars, forms' controls and anything hidden. The
 * class/id rules only remove an element that holds no heading of the page, no <main>/<article>
 * and less than half of the page's text, so a "layout-with-sidebar" wrapper never takes the
 * article with it.
 */
import { findAll, findElement, type HtmlElement, type HtmlNode, textContent } from './parse-html.js';

export interface PageInfo {
  title: string;
  description?: string;
  lang?: string;
  canonical?: string;
  siteName?: string;
  author?: string;
  published?: string;
  /** `<base href>`, resolved */
  base?: string;
}

/** Never content. */
const NOISE_TAGS = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'canvas',
  'iframe',
  'object',
  'embed',
  'audio',
  'video',
  'map',
  'button',
  'input',
  'select',
  'textarea',
  'option',
  'datalist',
  'dialog',
  'nav',
  'aside',
  'head',
  'link',
  'meta',
  'title',
]);

/** Site furniture when not inside the article itself. */
const FURNITURE_TAGS = new Set(['header', 'footer']);

const NOISE_ROLES = new Set([
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'search',
  'dialog',
  'alertdialog',
  'menu',
  'menubar',
  'toolbar',
  'tablist',
]);

const NOISE_NAMES =
  /(?:^|[\s_-])(?:nav|navbar|navigation|menu|sidebar|side-bar|footer|masthead|cookie|cookies|consent|gdpr|banner|advert|advertisement|ads|ad|sponsor|sponsored|promo|social|share|sharing|related|recommended|comments?|disqus|popup|modal|overlay|breadcrumbs?|subscribe|newsletter|signup|skip-link|toolbar|paywall)(?:$|[\s_-])/i;
const CONTENT_NAMES = /(?:article|content|main|post|entry|story|body|text|blog|prose|markdown)/i;

function attr(el: HtmlElement, name: string): string {
  return el.attrs[name]?.trim() ?? '';
}

function isHidden(el: HtmlElement): boolean {
  if ('hidden' in el.attrs || attr(el, 'aria-hidden') === 'true') return true;
  const style = attr(el, 'style').replace(/\s+/g, '').toLowerCase();
  return style.includes('display:none') || style.includes('visibility:hidden');
}

function metaContent(root: HtmlElement, key: string): string {
  const el = findElement(
    root,
    (e) => e.tag === 'meta' && (attr(e, 'name').toLowerCase() === key || attr(e, 'property').toLowerCase() === key),
  );
  return el ? attr(el, 'content') : '';
}

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

function resolve(href: string, base: string): string | undefined {
  try {
    return new URL(href, base).href;
  } catch {
    return undefined; // a broken href is simply not metadata
  }
}

/** The metadata of a parsed page; `pageUrl` resolves relative URLs. */
export function pageInfo(root: HtmlElement, pageUrl: string): PageInfo {
  const titleEl = findElement(root, (e) => e.tag === 'title');
  const h1 = findElement(root, (e) => e.tag === 'h1');
  const title =
    squash(titleEl ? textContent(titleEl) : '') ||
    squash(metaContent(root, 'og:title')) ||
    squash(h1 ? textContent(h1) : '');
  const info: PageInfo = { title };
  const baseEl = findElement(root, (e) => e.tag === 'base' && attr(e, 'href') !== '');
  const base = baseEl ? resolve(attr(baseEl, 'href'), pageUrl) : undefined;
  if (base) info.base = base;
  const description = squash(metaContent(root, 'description') || metaContent(root, 'og:description'));
  if (description) info.description = description;
  const html = findElement(root, (e) => e.tag === 'html');
  const lang = html ? attr(html, 'lang') : '';
  if (lang) info.lang = lang;
  const canonicalEl = findElement(
    root,
    (e) => e.tag === 'link' && attr(e, 'rel').toLowerCase().split(/\s+/).includes('canonical'),
  );
  const canonical = canonicalEl ? resolve(attr(canonicalEl, 'href'), base ?? pageUrl) : undefined;
  if (canonical) info.canonical = canonical;
  const siteName = squash(metaContent(root, 'og:site_name'));
  if (siteName) info.siteName = siteName;
  const author = squash(metaContent(root, 'author') || metaContent(root, 'article:author'));
  if (author) info.author = author;
  const published = squash(metaContent(root, 'article:published_time') || metaContent(root, 'date'));
  if (published) info.published = published;
  return info;
}

/** Text length per element, computed once per pruning pass. */
function textLengths(root: HtmlElement): Map<HtmlElement, number> {
  const lengths = new Map<HtmlElement, number>();
  const visit = (el: HtmlElement): number => {
    let n = 0;
    for (const child of el.children) n += child.type === 'text' ? child.text.trim().length : visit(child);
    lengths.set(el, n);
    return n;
  };
  visit(root);
  return lengths;
}

function holdsLandmark(el: HtmlElement): boolean {
  return (
    findElement(el, (e) => e.tag === 'main' || e.tag === 'article' || e.tag === 'h1' || attr(e, 'role') === 'main') !==
    null
  );
}

function insideArticle(el: HtmlElement): boolean {
  for (let p = el.parent; p; p = p.parent)
    if (p.tag === 'article' || p.tag === 'main' || attr(p, 'role') === 'main') return true;
  return false;
}

/** Removes noise from the tree in place. */
export function prune(root: HtmlElement): void {
  const lengths = textLengths(root);
  const total = lengths.get(root) ?? 0;
  const drop = (el: HtmlElement): boolean => {
    if (NOISE_TAGS.has(el.tag) || isHidden(el)) return true;
    if (NOISE_ROLES.has(attr(el, 'role').toLowerCase())) return true;
    if (FURNITURE_TAGS.has(el.tag) && !insideArticle(el)) return !holdsLandmark(el);
    const names = `${attr(el, 'class')} ${attr(el, 'id')}`;
    if (names.trim() && NOISE_NAMES.test(names) && !CONTENT_NAMES.test(names)) {
      return !holdsLandmark(el) && (lengths.get(el) ?? 0) < total / 2;
    }
    return false;
  };
  const walk = (el: HtmlElement) => {
    el.children = el.children.filter((c: HtmlNode) => c.type === 'text' || !drop(c));
    for (const c of el.children) if (c.type === 'element') walk(c);
  };
  walk(root);
}

/** Below this many characters a chosen landmark is not trusted over the whole body. */
const MIN_LANDMARK_CHARS = 200;

/** The element holding the main content of a pruned page: <main>, else the one <article>, else <body>. */
export function contentRoot(root: HtmlElement): HtmlElement {
  const body = findElement(root, (e) => e.tag === 'body') ?? root;
  const lengths = textLengths(body);
  const bodyChars = lengths.get(body) ?? 0;
  const trusted = (el: HtmlElement | null): el is HtmlElement =>
    el !== null && ((lengths.get(el) ?? 0) >= MIN_LANDMARK_CHARS || (lengths.get(el) ?? 0) >= bodyChars * 0.5);
  const main = findElement(body, (e) => e.tag === 'main' || attr(e, 'role') === 'main');
  if (trusted(main)) return main;
  const articles = findAll(body, (e) => e.tag === 'article');
  if (articles.length === 1 && trusted(articles[0] ?? null)) return articles[0] as HtmlElement;
  if (articles.length > 1) {
    // one dominant article (a post with article-tagged comments); a list of teasers keeps the body
    const [top] = [...articles].sort((a, b) => (lengths.get(b) ?? 0) - (lengths.get(a) ?? 0));
    if (top && (lengths.get(top) ?? 0) >= bodyChars * 0.6) return top;
  }
  return body;
}
