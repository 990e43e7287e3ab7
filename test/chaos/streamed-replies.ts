// Streaming mode: a streamed answer is one message edited until it carries the whole answer, so a
// reply is taken from what each message shows now (its newest edit), once, when it is whole: an
// `ack` ending with the stream's last word. A partial `ack chaos-m1` (of m12) is never taken; two
// messages that both end up whole are two replies (a duplicate).
import { STREAM_END } from './model.js';
import type { Reply } from './platforms.js';

/** A message the bot posted, with the text it shows now. */
export interface ShownMessage {
  id: string;
  chatId: string;
  text: string;
}

/** true when the text is a whole answer (anything that is not a streamed `ack` is whole as posted) */
export const isWhole = (text: string): boolean => !text.startsWith('ack ') || text.trimEnd().endsWith(STREAM_END);

export class StreamedReplies {
  /** the whole text each taken message showed when taken */
  readonly #taken = new Map<string, string>();

  /**
   * The replies whole since the last call. A taken message edited since to another whole text (a
   * streamed answer the gateway later replaced by its apology) comes again, marked as replacing it.
   */
  take(messages: readonly ShownMessage[]): Reply[] {
    const out: Reply[] = [];
    for (const m of messages) {
      const before = this.#taken.get(m.id);
      if (before === m.text || !isWhole(m.text)) continue;
      this.#taken.set(m.id, m.text);
      out.push({ chatId: m.chatId, text: m.text, ...(before === undefined ? {} : { replaces: before }) });
    }
    return out;
  }
}

/** The newest text per id from a list of edits, oldest first. */
export function newestEdits<E>(
  edits: readonly E[],
  id: (edit: E) => string,
  text: (edit: E) => string,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const edit of edits) out.set(id(edit), text(edit));
  return out;
}
