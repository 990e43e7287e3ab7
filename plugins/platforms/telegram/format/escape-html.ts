/** Escaping for Telegram HTML: text needs &, <, >; attribute values also need " (the plugin SDK's). */
export { escapeAttribute, escapeHtml } from '@hermes/plugin-sdk';
