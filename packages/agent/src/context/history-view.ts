/** The history a turn starts from: the full transcript with the session's newest summary applied. */
import type { ChatMessage } from '@hermes/protocol';
import type { StoredContextSummary } from './context-settings.js';
import { summaryMessage } from './summarize.js';

export interface HistoryView {
  /** what is sent after the system prompt (before this turn's messages) */
  messages: readonly ChatMessage[];
  /** the summary message in `messages`, if any */
  summary: ChatMessage | null;
}

/** Head, summary, then the messages from `keepFrom`; the full history when the record does not fit it. */
export function historyView(full: readonly ChatMessage[], stored: StoredContextSummary | null): HistoryView {
  if (stored === null || stored.keepFrom > full.length || stored.headCount > stored.keepFrom) {
    return { messages: full, summary: null };
  }
  const summary = summaryMessage(stored.summary);
  return {
    messages: [...full.slice(0, stored.headCount), summary, ...full.slice(stored.keepFrom)],
    summary,
  };
}
