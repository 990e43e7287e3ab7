/** One call from an HTML page to what the provider returns: metadata, Markdown or text content, and links. */
import { type PageLink, pageLinks } from './links.js';
import { contentRoot, type PageInfo, pageInfo, prune } from './page-content.js';
import { parseHtml } from './parse-html.js';
import { type RenderFormat, renderHtml } from './to-markdown.js';

export interface ConvertedPage {
  info: PageInfo;
  content: string;
  /** the page's links (before pruning, so navigation counts), when asked for */
  links: PageLink[];
}

/** Parses `html` fetched from `url`, prunes it to its main content and renders it. */
export function convertHtml(html: string, url: string, format: RenderFormat, withLinks: boolean): ConvertedPage {
  const root = parseHtml(html);
  const info = pageInfo(root, url);
  const base = info.base ?? url;
  const links = withLinks ? pageLinks(root, base) : [];
  prune(root);
  return { info, content: renderHtml(contentRoot(root), format, base), links };
}
