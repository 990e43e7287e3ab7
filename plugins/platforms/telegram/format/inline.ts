/**
 * Inline Markdown → Telegram HTML for one line: code spans, links, bold, italic, strike, with the
 * tags Telegram supports (b, i, s) and its own `tg://` links (the plugin SDK's inline renderer).
 */
import { inlineHtml } from '@hermes/plugin-sdk';

const telegram = inlineHtml({
  tags: { bold: 'b', italic: 'i', strike: 's' },
  schemes: ['tg://'],
  autolinkSchemes: ['tg://'],
});

/** Renders one line of inline Markdown as Telegram HTML; never emits an unbalanced or unsupported tag. */
export const renderInline = telegram.renderInline;

/** The visible text of inline Markdown, markers removed: for monospace tables. */
export const inlineToPlain = telegram.inlineToPlain;
