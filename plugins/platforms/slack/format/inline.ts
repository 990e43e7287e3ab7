/**
 * Inline Markdown → Slack mrkdwn: code spans kept, links to <url|text>, **bold** → *bold*,
 * *italic* / _italic_ → _italic_, ~~strike~~ → ~strike~, backslash escapes resolved, & < > escaped.
 */
import { escapeMrkdwn } from './escape-mrkdwn.js';

// Private-use characters never typed by a model stand in for finished pieces while the rest is converted.
const SLOT_OPEN = '\uE000';
const SLOT_CLOSE = '\uE001';
const BOLD = '\uE002';
const SLOT = /\uE000(\d+)\uE001/g;

const CODE_SPAN = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g;
const LINK = /!?\[((?:[^\]\\]|\\.)*)\]\(\s*<?([^()\s<>]+(?:\([^()\s]*\))?)>?(?:\s+"[^"]*")?\s*\)/g;
const AUTOLINK = /<((?:https?|mailto):[^\s<>]+)>/g;
const ESCAPED = /\\([\\`*_{}[\]()#+\-.!~|>])/g;

function linkLabel(text: string): string {
  return escapeMrkdwn(text.replace(ESCAPED, '$1').replace(/[*_~`]/g, '')).replace(/\|/g, '¦');
}

function linkTarget(url: string): string {
  return url.replace(/&/g, '&amp;').replace(/</g, '%3C').replace(/>/g, '%3E').replace(/\|/g, '%7C');
}

/** Converts one line (or run of text without block structure). */
export function convertInline(text: string): string {
  const slots: string[] = [];
  const slot = (value: string): string => {
    slots.push(value);
    return `${SLOT_OPEN}${slots.length - 1}${SLOT_CLOSE}`;
  };
  let out = text.replace(CODE_SPAN, (_, ticks: string, code: string) => {
    // Slack has single-backtick code only; a span written with more ticks keeps its inner backticks
    const inner = ticks.length > 1 ? code.trim() : code;
    return slot(`\`${escapeMrkdwn(inner)}\``);
  });
  out = out.replace(ESCAPED, (_, char: string) => slot(escapeMrkdwn(char)));
  out = out.replace(LINK, (_, label: string, url: string) => {
    const shown = linkLabel(label);
    return slot(shown === '' || shown === url ? `<${linkTarget(url)}>` : `<${linkTarget(url)}|${shown}>`);
  });
  out = out.replace(AUTOLINK, (_, url: string) => slot(`<${linkTarget(url)}>`));
  out = escapeMrkdwn(out);
  out = out
    .replace(/\*\*\*(?=\S)([\s\S]*?\S)\*\*\*/g, `${BOLD}_$1_${BOLD}`)
    .replace(/\*\*(?=\S)([\s\S]*?\S)\*\*/g, `${BOLD}$1${BOLD}`)
    .replace(/(^|[^\w])__(?=\S)([\s\S]*?\S)__(?!\w)/g, `$1${BOLD}$2${BOLD}`)
    .replace(/(^|[^\w*])\*(?=[^\s*])([^*\n]*?[^\s*])\*(?![\w*])/g, '$1_$2_')
    .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '~$1~')
    .replaceAll(BOLD, '*');
  // a slot may hold another (code inside a link label): restore until none is left
  for (let pass = 0; pass < 3 && out.includes(SLOT_OPEN); pass += 1) {
    out = out.replace(SLOT, (_, index: string) => slots[Number(index)] ?? '');
  }
  return out;
}
