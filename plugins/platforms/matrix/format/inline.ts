/**
 * Inline Markdown → Matrix HTML (the `org.matrix.custom.html` subset) for one line: code spans,
 * links, bold, italic, strike. Every construct is rendered whole and parked behind a placeholder,
 * so tags always nest properly and an unmatched marker stays literal text.
 */

const MARK = '\uE000'; // a private-use character, removed from the input first
const PLACEHOLDER = /\uE000(\d+)\uE000/g;
const SAFE_URL = /^(?:https?:\/\/|mailto:|matrix:)[^\s<>]+$/i;
const CODE_SPAN = /(?<!`)(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g;
const ESCAPED = /\\([!-/:-@[-`{-~])/g;
const AUTOLINK = /<((?:https?:\/\/|mailto:)[^\s<>]+)>/gi;
const LINK = /(!?)\[((?:[^[\]\\]|\\.)*)\]\(\s*((?:[^()\s]|\([^()\s]*\))+)(?:\s+"[^"]*")?\s*\)/g;

/** Escapes text content. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const escapeAttribute = (value: string): string => escapeHtml(value).replace(/"/g, '&quot;');

/** `M content M`, the opener not inside a word, no spaces just inside the markers. */
function delimited(marker: string): RegExp {
  const m = marker.replace(/\*/g, '\\*');
  const c = marker[0] === '*' ? '\\*' : (marker[0] ?? '');
  const edge = marker.length === 1 ? `[^\\s${c}]` : '\\S';
  return new RegExp(`(^|[^\\p{L}\\p{N}${c}\\\\])${m}(?=${edge})([\\s\\S]*?${edge})${m}(?![\\p{L}\\p{N}${c}])`, 'gu');
}

const EMPHASIS: readonly { pattern: RegExp; tag: string }[] = [
  { pattern: delimited('**'), tag: 'strong' },
  { pattern: delimited('__'), tag: 'strong' },
  { pattern: delimited('~~'), tag: 'del' },
  { pattern: delimited('*'), tag: 'em' },
  { pattern: delimited('_'), tag: 'em' },
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

/** Renders one line of inline Markdown as HTML; never emits an unbalanced tag. */
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
