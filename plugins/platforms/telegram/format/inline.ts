/**
 * Inline Markdown → Telegram HTML for one line: code spans, links, bold, italic, strike. Every
 * construct is rendered whole and parked behind a placeholder, so tags always nest properly and an
 * unmatched marker stays literal text.
 */
import { escapeAttribute, escapeHtml } from './escape-html.js';

const MARK = '\uE000'; // a private-use character, removed from the input first
const PLACEHOLDER = /\uE000(\d+)\uE000/g;
const SAFE_URL = /^(?:https?:\/\/|mailto:|tg:\/\/)[^\s<>]+$/i;
const CODE_SPAN = /(?<!`)(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g;
const ESCAPED = /\\([!-/:-@[-`{-~])/g;
const AUTOLINK = /<((?:https?:\/\/|mailto:|tg:\/\/)[^\s<>]+)>/gi;
const LINK = /(!?)\[((?:[^[\]\\]|\\.)*)\]\(\s*((?:[^()\s]|\([^()\s]*\))+)(?:\s+"[^"]*")?\s*\)/g;

/**
 * `M content M`: the opener not preceded by a letter, digit or marker character, the closer not
 * followed by one, no spaces just inside. Single markers also keep their character off the content
 * edges; double ones may hold a single marker there (so `***x***` is bold italic).
 */
function delimited(marker: string): RegExp {
  const m = marker.replace(/\*/g, '\\*');
  const c = marker[0] === '*' ? '\\*' : (marker[0] ?? '');
  const edge = marker.length === 1 ? `[^\\s${c}]` : '\\S';
  return new RegExp(`(^|[^\\p{L}\\p{N}${c}\\\\])${m}(?=${edge})([\\s\\S]*?${edge})${m}(?![\\p{L}\\p{N}${c}])`, 'gu');
}

const EMPHASIS: readonly { pattern: RegExp; tag: string }[] = [
  { pattern: delimited('**'), tag: 'b' },
  { pattern: delimited('__'), tag: 'b' },
  { pattern: delimited('~~'), tag: 's' },
  { pattern: delimited('*'), tag: 'i' },
  { pattern: delimited('_'), tag: 'i' },
];

class Parked {
  private readonly items: string[] = [];

  hold(html: string): string {
    this.items.push(html);
    return `${MARK}${this.items.length - 1}${MARK}`;
  }

  restore(text: string): string {
    return text.replace(PLACEHOLDER, (_, index: string) => this.restore(this.items[Number(index)] ?? ''));
  }
}

function emphasize(text: string, parked: Parked): string {
  let out = text;
  for (const { pattern, tag } of EMPHASIS) {
    out = out.replace(pattern, (_, before: string, inner: string) => {
      return before + parked.hold(`<${tag}>${emphasize(inner, parked)}</${tag}>`);
    });
  }
  return out;
}

function codeSpan(code: string): string {
  const trimmed = /^ [\s\S]*[^ ][\s\S]* $/.test(code) ? code.slice(1, -1) : code;
  return `<code>${escapeHtml(trimmed)}</code>`;
}

function link(parked: Parked, image: string, label: string, url: string): string {
  const text = emphasize(escapeHtml(label), parked) || (image ? 'image' : '');
  if (!SAFE_URL.test(url)) return parked.hold(text === '' ? escapeHtml(url) : text);
  return parked.hold(`<a href="${escapeAttribute(url)}">${text === '' ? escapeHtml(url) : text}</a>`);
}

/** Renders one line of inline Markdown as Telegram HTML; never emits an unbalanced or unsupported tag. */
export function renderInline(markdown: string): string {
  const parked = new Parked();
  const text = markdown
    .replaceAll(MARK, '')
    .replace(CODE_SPAN, (_, _ticks: string, code: string) => parked.hold(codeSpan(code)))
    .replace(ESCAPED, (_, char: string) => parked.hold(escapeHtml(char)))
    .replace(AUTOLINK, (_, url: string) => link(parked, '', url, url))
    .replace(LINK, (_, image: string, label: string, url: string) => link(parked, image, label, url));
  return parked.restore(emphasize(escapeHtml(text), parked));
}

/** The visible text of inline Markdown, markers removed: for monospace tables. */
export function inlineToPlain(markdown: string): string {
  return markdown
    .replace(CODE_SPAN, (_, _ticks: string, code: string) => code)
    .replace(LINK, (_, _image: string, label: string, url: string) => label || url)
    .replace(/(\*\*|__|~~)(?=\S)([\s\S]*?\S)\1/g, '$2')
    .replace(ESCAPED, '$1');
}
