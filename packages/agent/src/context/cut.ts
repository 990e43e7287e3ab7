/**
 * Where a history may be cut: never between an assistant message with `tool_calls` and its `tool`
 * results. A boundary before message `i` is safe when message `i` is not a `tool` message (a tool
 * result always follows its assistant message and its siblings).
 */
import type { ChatMessage } from '@hermes/protocol';

/** the most messages the head (the first exchange) may take */
export const MAX_HEAD = 8;

/**
 * The exchanges kept whole by every cut (the one in progress and the one before it): older messages
 * give way first, the head included, and these only when they alone would pass the model's window.
 */
export const WHOLE_EXCHANGES = 2;

/** True when cutting right before `index` keeps every tool result with its call. */
export function isSafeBoundary(messages: readonly ChatMessage[], index: number): boolean {
  return index <= 0 || index >= messages.length || messages[index]?.role !== 'tool';
}

/** The nearest safe boundary at or before `index`, not below `min`; else the nearest one after. */
export function safeBoundary(messages: readonly ChatMessage[], index: number, min = 0): number {
  let back = Math.min(index, messages.length);
  while (back > min && !isSafeBoundary(messages, back)) back--;
  if (isSafeBoundary(messages, back) && back >= min) return back;
  return nextSafeBoundary(messages, index);
}

/** The first safe boundary after `index`. */
export function nextSafeBoundary(messages: readonly ChatMessage[], index: number): number {
  let next = index + 1;
  while (next < messages.length && !isSafeBoundary(messages, next)) next++;
  return Math.min(next, messages.length);
}

/**
 * The end of the first exchange: the first user message through the first assistant answer without
 * tool calls (at most MAX_HEAD messages; longer, just the first user message). 0 for no head.
 */
export function headEnd(messages: readonly ChatMessage[]): number {
  if (messages[0]?.role !== 'user') return 0;
  for (let i = 1; i < Math.min(messages.length, MAX_HEAD); i++) {
    const m = messages[i];
    if (m?.role === 'user') return i;
    if (m?.role === 'assistant' && !(m.tool_calls && m.tool_calls.length > 0)) return i + 1;
  }
  return 1;
}

/**
 * Where the last `count` exchanges start (an exchange: a user message and everything after it up to
 * the next user message); 0 when the history has fewer. Always a safe boundary.
 */
export function lastExchangesStart(messages: readonly ChatMessage[], count = WHOLE_EXCHANGES): number {
  let seen = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === 'user' && ++seen === count) return i;
  }
  return 0;
}
