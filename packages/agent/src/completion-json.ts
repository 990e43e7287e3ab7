/**
 * The JSON text of a Chat Completions request body, with each tool definition serialized once:
 * the tool list is the same on every request (often most of the body's bytes), the messages are
 * not. A tool schema object is cached by identity (run-turn.ts keeps one per registered tool), so
 * it must not be changed after its first request: tools are fixed once registered.
 */
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';

const toolJson = new WeakMap<object, string>();

/** `JSON.stringify(body)` up to the order of its keys (`tools` last). */
export function completionJson(body: ChatCompletionCreateParams): string {
  const { tools, ...rest } = body;
  if (tools === undefined || tools.length === 0) return JSON.stringify(body);
  const parts = tools.map((tool) => {
    let text = toolJson.get(tool);
    if (text === undefined) {
      text = JSON.stringify(tool);
      toolJson.set(tool, text);
    }
    return text;
  });
  const head = JSON.stringify(rest);
  return `${head.slice(0, -1)}${head.length > 2 ? ',' : ''}"tools":[${parts.join(',')}]}`;
}
