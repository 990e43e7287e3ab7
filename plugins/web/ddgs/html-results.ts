/**
 * The results of DuckDuckGo's HTML page (html.duckduckgo.com/html/), read as the Python ddgs
 * library reads them: each result's title link (`a.result__a`) and its snippet
 * (`a.result__snippet`); ads (links through duckduckgo.com/y.js) are left out. DuckDuckGo's own
 * redirect links (`//duckduckgo.com/l/?uddg=<url>`) become the URL they lead to. A linear scan
 * of the anchors: no parser, no backtracking regular expression over the page.
 */
import type { SearchHitFields } from '@hermes/plugin-sdk';

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** HTML character references decoded: the named ones a results page uses, and every numeric one. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref.toLowerCase()] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : whole;
  });
}

/** The text of a piece of HTML: tags dropped, references decoded, whitespace collapsed. */
export function htmlText(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

/** The attributes of a tag's inside (`a class="x" href='y'`), names lower-cased, values decoded. */
function attributes(tag: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of tag.matchAll(/([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/g)) {
    out.set((m[1] ?? '').toLowerCase(), decodeEntities(m[2] ?? m[3] ?? m[4] ?? ''));
  }
  return out;
}

/** A result link as the URL it leads to: protocol-relative made https, DuckDuckGo's redirect unwrapped. */
export function resultUrl(href: string): string {
  const absolute = href.startsWith('//') ? `https:${href}` : href;
  let url: URL;
  try {
    url = new URL(absolute);
  } catch {
    return '';
  }
  if (url.hostname.endsWith('duckduckgo.com') && url.pathname === '/l/') {
    const target = url.searchParams.get('uddg');
    return target && /^https?:\/\//i.test(target) ? target : '';
  }
  return /^https?:$/.test(url.protocol) ? url.href : '';
}

/** An ad: DuckDuckGo sends ad clicks through duckduckgo.com/y.js. */
function isAd(url: string): boolean {
  return /^https:\/\/(?:[\w-]+\.)*duckduckgo\.com\/y\.js/i.test(url);
}

interface Anchor {
  classes: string[];
  href: string;
  inner: string;
}

/** Every `<a ...>...</a>` of the page, in order (anchors do not nest in HTML). */
function* anchors(html: string): Generator<Anchor> {
  const open = /<a[\s>]/gi;
  const close = /<\/a[\s>]/gi;
  for (;;) {
    const start = open.exec(html);
    if (!start) return;
    const tagEnd = html.indexOf('>', start.index);
    if (tagEnd < 0) return;
    close.lastIndex = tagEnd;
    const end = close.exec(html);
    if (!end) return;
    const attrs = attributes(html.slice(start.index + 2, tagEnd));
    yield {
      classes: (attrs.get('class') ?? '').split(/\s+/),
      href: attrs.get('href') ?? '',
      inner: html.slice(tagEnd + 1, end.index),
    };
    open.lastIndex = end.index + end[0].length;
  }
}

/** The organic results of a results page, in page order. */
export function parseResults(html: string): SearchHitFields[] {
  const hits: SearchHitFields[] = [];
  let current: SearchHitFields | null = null;
  for (const a of anchors(html)) {
    if (a.classes.includes('result__a')) {
      current = { title: htmlText(a.inner), url: resultUrl(a.href), description: '' };
      hits.push(current);
    } else if (a.classes.includes('result__snippet') && current && current.description === '') {
      current.description = htmlText(a.inner);
      if (current.url === '') current.url = resultUrl(a.href);
    }
  }
  return hits.filter((hit) => hit.url !== '' && !isAd(hit.url));
}

/** DuckDuckGo's bot check ("anomaly") page, which it answers instead of results when it limits an address. */
export function isBotCheck(html: string): boolean {
  return /anomaly-modal|challenge-form|bots use duckduckgo too/i.test(html);
}

/** Whether the page is a results page at all (results, or its "No results." notice). */
export function isResultsPage(html: string): boolean {
  return /result__a|result__body|no-results/i.test(html);
}
