/** The links of a page, for crawling: absolute http(s) URLs without fragments, first occurrence first. */
import { findAll, type HtmlElement } from './parse-html.js';

/** Files a crawl does not follow: it reads pages, not downloads. */
const NOT_PAGES =
  /\.(?:pdf|zip|gz|tgz|bz2|xz|7z|rar|tar|exe|dmg|pkg|deb|rpm|msi|iso|apk|jpe?g|png|gif|webp|svg|ico|bmp|tiff?|mp3|mp4|m4a|wav|ogg|webm|mov|avi|mkv|woff2?|ttf|otf|css|js|json|xml|rss|atom|csv|xlsx?|docx?|pptx?)$/i;

export interface PageLink {
  url: string;
  text: string;
}

/** Links of `root` resolved against `base`, deduplicated, skipping non-http(s), nofollow and file downloads. */
export function pageLinks(root: HtmlElement, base: string): PageLink[] {
  const seen = new Set<string>();
  const out: PageLink[] = [];
  for (const a of findAll(root, (e) => e.tag === 'a' && typeof e.attrs.href === 'string')) {
    if ((a.attrs.rel ?? '').toLowerCase().split(/\s+/).includes('nofollow')) continue;
    let url: URL;
    try {
      url = new URL(a.attrs.href ?? '', base);
    } catch {
      continue; // an unparsable href is not a link to follow
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    if (NOT_PAGES.test(url.pathname)) continue;
    url.hash = '';
    if (seen.has(url.href)) continue;
    seen.add(url.href);
    out.push({ url: url.href, text: textOf(a) });
  }
  return out;
}

function textOf(el: HtmlElement): string {
  let text = '';
  for (const c of el.children) text += c.type === 'text' ? c.text : textOf(c);
  return text.replace(/\s+/g, ' ').trim();
}
