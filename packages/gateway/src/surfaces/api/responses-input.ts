/**
 * The Responses API's `input` (a string, or message items already checked by the schema) as a
 * turn: the last item must be the user's message; earlier user and assistant items are history
 * the model sees first, and system / developer items join the request's `instructions`.
 */
import type { ChatMessage } from '@hermes/protocol';
import { contentText } from './schemas.js';

export interface ResponsesTurnInput {
  /** the input's earlier items, as messages (they are stored with the turn) */
  history: ChatMessage[];
  userMessage: string;
  /** `instructions`, then the text of any system / developer items; null without either */
  instructions: string | null;
}

interface InputItem {
  role: 'user' | 'assistant' | 'system' | 'developer';
  content: unknown;
}

/** The turn `input` asks for, or what is wrong with it (the message names the field). */
export function responsesTurnInput(
  input: unknown,
  instructions: unknown,
): ResponsesTurnInput | { problem: string; param: string } {
  const own = typeof instructions === 'string' && instructions.trim() !== '' ? [instructions] : [];
  if (typeof input === 'string') return { history: [], userMessage: input, instructions: own[0] ?? null };
  const items = input as InputItem[];
  const last = items.at(-1);
  if (last?.role !== 'user') {
    return { problem: `input[${items.length - 1}]: the last item must be a user message`, param: 'input' };
  }
  const history: ChatMessage[] = [];
  const system = [...own];
  for (const item of items.slice(0, -1)) {
    const text = contentText(item.content) ?? '';
    if (item.role === 'system' || item.role === 'developer') system.push(text);
    else history.push({ role: item.role, content: text });
  }
  return {
    history,
    userMessage: contentText(last.content) ?? '',
    instructions: system.length > 0 ? system.join('\n\n') : null,
  };
}
