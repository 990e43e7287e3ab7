/** An MCP tool result as the text the model reads: text joined, images, audio and resources described. */

interface ContentItem {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  resource?: { uri?: string; mimeType?: string; text?: string; blob?: string };
}

export interface McpCallResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
  toolResult?: unknown;
}

function base64Bytes(data: string | undefined): number {
  if (!data) return 0;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

function describe(item: ContentItem): string {
  switch (item.type) {
    case 'text':
      return item.text ?? '';
    case 'image':
    case 'audio':
      return `[${item.type}: ${item.mimeType ?? 'unknown type'}, ${base64Bytes(item.data)} bytes, not shown]`;
    case 'resource': {
      const r = item.resource ?? {};
      const label = `${r.uri ?? 'resource'}${r.mimeType ? ` (${r.mimeType})` : ''}`;
      if (typeof r.text === 'string') return `[resource ${label}]\n${r.text}`;
      return `[resource ${label}: ${base64Bytes(r.blob)} bytes of binary data, not shown]`;
    }
    case 'resource_link':
      return `[resource link: ${item.name ?? ''} ${item.uri ?? ''}]`.replace(/\s+]/, ']');
    default:
      return `[${item.type} content, not shown]`;
  }
}

/** The text of a `tools/call` result; structured content alone becomes its JSON. */
export function mcpResultText(result: McpCallResult): string {
  const items = Array.isArray(result.content) ? (result.content as ContentItem[]) : [];
  if (items.length > 0) return items.map(describe).join('\n');
  if (result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  if (result.toolResult !== undefined) return JSON.stringify(result.toolResult);
  return '';
}
