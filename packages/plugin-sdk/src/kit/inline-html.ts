/**
 * Inline Markdown → HTML for one line, for platforms whose messages take an HTML subset (Telegram's
 * HTML, Matrix's `formatted_body`): code spans, links, bold, italic, strike. Every construct is
 * rendered whole and parked behind a placeholder, so tags always nest properly and an unmatched
 * marker stays literal text. A platform names its tags and the URL schemes a link may carry.
 */

/** Escapes text content (&, <, >). */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escapes a double-quoted attribute value. */
export function escapeAttribute(value: string): string {
  return escapeHtml(value).replace(/"/g, '&quot;');
}

export interface InlineHtmlDialect {
  /** the tags for `**bold**`, `*italic*` and `~~strike~~` (e.g. b/i/s, or strong/em/del) */
  tags: { bold: string; italic: string; strike: string };
  /** URL schemes a link may carry besides http(s) and mailto (e.g. `tg://`, `matrix:`); others stay text */
  schemes?: readonly string[];
  /** schemes also written bare between <> (autolinks); default: http(s) and mailto only */
  autolinkSchemes?: readonly string[];
}

export interface InlineHtml {
  /** one line of inline Markdown as HTML; never an unbalanced tag */
  renderInline(markdown: string): string;
  /** the visible text of inline Markdown, markers removed (for monospace tables) */
  inlineToPlain(markdown: string): string;
}

const MARK = '\uE000'; // a private-use character, removed from the input first
const PLACEHOLDER = /\uE000(\d+)\uE000/g;
const CODE_SPAN = /(?<!`)(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g;
const ESCAPED = /\\([!-/:-@[-`{-~])/g;
const LINK = /(!?)\[((?:[^[\]\\]|\\.)*)\]\(\s*((?:[^()\s]|\([^()\s]*\))+)(?:\s+"[^"]*")?\s*\)/g;
const BASE_SCHEMES = ['https?:\\/\\/', 'mailto:'];
const escapeScheme = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

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

function codeSpan(code: string): string {
  const trimmed = /^ [\s\S]*[^ ][\s\S]* $/.test(code) ? code.slice(1, -1) : code;
  return `<code>${escapeHtml(trimmed)}</code>`;
}

/** The renderer of one dialect. */
export function inlineHtml(dialect: InlineHtmlDialect): InlineHtml {
  const schemes = [...BASE_SCHEMES, ...(dialect.schemes ?? []).map(escapeScheme)].join('|');
  const autolinks = [...BASE_SCHEMES, ...(dialect.autolinkSchemes ?? []).map(escapeScheme)].join('|');
  const safeUrl = new RegExp(`^(?:${schemes})[^\\s<>]+$`, 'i');
  const autolink = new RegExp(`<((?:${autolinks})[^\\s<>]+)>`, 'gi');
  const { bold, italic, strike } = dialect.tags;
  const emphasis: readonly { pattern: RegExp; tag: string }[] = [
    { pattern: delimited('**'), tag: bold },
    { pattern: delimited('__'), tag: bold },
    { pattern: delimited('~~'), tag: strike },
    { pattern: delimited('*'), tag: italic },
    { pattern: delimited('_'), tag: italic },
  ];

  const emphasize = (text: string, parked: Parked): string => {
    let out = text;
    for (const { pattern, tag } of emphasis) {
      out = out.replace(pattern, (_, before: string, inner: string) => {
        return before + parked.hold(`<${tag}>${emphasize(inner, parked)}</${tag}>`);
      });
    }
    return out;
  };

  const link = (parked: Parked, image: string, label: string, url: string): string => {
    const text = emphasize(escapeHtml(label), parked) || (image ? 'image' : '');
    if (!safeUrl.test(url)) return parked.hold(text === '' ? escapeHtml(url) : text);
    return parked.hold(`<a href="${escapeAttribute(url)}">${text === '' ? escapeHtml(url) : text}</a>`);
  };

  return {
    renderInline(markdown) {
      const parked = new Parked();
      const text = markdown
        .replaceAll(MARK, '')
        .replace(CODE_SPAN, (_, _ticks: string, code: string) => parked.hold(codeSpan(code)))
        .replace(ESCAPED, (_, char: string) => parked.hold(escapeHtml(char)))
        .replace(autolink, (_, url: string) => link(parked, '', url, url))
        .replace(LINK, (_, image: string, label: string, url: string) => link(parked, image, label, url));
      return parked.restore(emphasize(escapeHtml(text), parked));
    },
    inlineToPlain(markdown) {
      return markdown
        .replace(CODE_SPAN, (_, _ticks: string, code: string) => code)
        .replace(LINK, (_, _image: string, label: string, url: string) => label || url)
        .replace(/(\*\*|__|~~)(?=\S)([\s\S]*?\S)\1/g, '$2')
        .replace(ESCAPED, '$1');
    },
  };
}
