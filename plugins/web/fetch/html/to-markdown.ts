/**
 * Renders a parsed (and pruned) HTML tree as Markdown or plain text with turndown: headings,
 * paragraphs, links and images with absolute URLs, emphasis, inline code and fenced code blocks
 * (with their language), nested lists, block quotes, GitHub tables and line breaks, whitespace
 * collapsed as a browser would except inside <pre>. Text mode keeps the structure (paragraphs,
 * list markers, line breaks) but no markup, links or images. turndown-rules.ts holds what turndown
 * is told beyond its options; to-dom.ts hands it the tree as a DOM.
 */
import TurndownService from 'turndown';
import type { HtmlElement } from './parse-html.js';
import { toDom } from './to-dom.js';
import { markdownRules, textRules } from './turndown-rules.js';

export type RenderFormat = 'markdown' | 'text';

/** Never content, whatever pruning left. */
const DROPPED = ['script', 'style', 'noscript', 'template'] as never;

function service(format: RenderFormat): InstanceType<typeof TurndownService> {
  const markdown = format === 'markdown';
  const td = new TurndownService({
    headingStyle: 'atx',
    hr: '---',
    bulletListMarker: '-',
    codeBlockStyle: 'fenced',
    emDelimiter: '*',
    strongDelimiter: '**',
    br: markdown ? '  ' : '',
  });
  td.remove(DROPPED);
  if (markdown) markdownRules(td);
  else textRules(td);
  return td;
}

const services: Partial<Record<RenderFormat, InstanceType<typeof TurndownService>>> = {};

/** Renders an element (usually a page's content root) as Markdown or text; `base` resolves relative URLs. */
export function renderHtml(root: HtmlElement, format: RenderFormat, base: string): string {
  services[format] ??= service(format);
  return services[format]
    .turndown(toDom(root, base) as never)
    .replace(/\u00a0/g, ' ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
