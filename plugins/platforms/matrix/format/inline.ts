/**
 * Inline Markdown → Matrix HTML (the `org.matrix.custom.html` subset) for one line: code spans,
 * links, bold, italic, strike, as strong/em/del, links also to `matrix:` URIs (the plugin SDK's
 * inline renderer).
 */
import { inlineHtml } from '@hermes/plugin-sdk';

export { escapeHtml } from '@hermes/plugin-sdk';

const matrix = inlineHtml({ tags: { bold: 'strong', italic: 'em', strike: 'del' }, schemes: ['matrix:'] });

/** Renders one line of inline Markdown as HTML; never emits an unbalanced tag. */
export const renderInline = matrix.renderInline;

/** The visible text of inline Markdown, markers removed: for monospace tables. */
export const inlineToPlain = matrix.inlineToPlain;
