/**
 * A reasoning model's thinking, apart from its answer. Providers send it two ways: in a field of
 * its own (`reasoning_content`: DeepSeek, vLLM, llama.cpp; `reasoning`: OpenRouter, Ollama), or
 * inline in the content as a `<think>`, `<thinking>` or `<reasoning>` block (Qwen, DeepSeek-R1
 * and their distills, some of which send only the closing tag). The answer the chat gets, the
 * transcript keeps and the next request sends back is the content without it; the thinking is
 * the turn's `reasoning`, shown only where the chat asked for it (`/reasoning show`).
 */

const OPEN = /<(think|thinking|reasoning)>/i;
const TAGS = ['think', 'thinking', 'reasoning'];

export interface SplitContent {
  /** the answer without the thinking (null when nothing is left) */
  text: string | null;
  /** the thinking (null when there was none) */
  reasoning: string | null;
}

const orNull = (s: string) => (s.trim() === '' ? null : s);
const joinParts = (parts: string[]) =>
  orNull(
    parts
      .map((p) => p.trim())
      .filter((p) => p !== '')
      .join('\n\n'),
  );

/** Splits the thinking blocks out of a whole answer. */
export function splitReasoning(content: string | null): SplitContent {
  if (content === null || content === '' || (!content.includes('</') && !OPEN.test(content))) {
    return { text: content === '' ? null : content, reasoning: null };
  }
  const thoughts: string[] = [];
  let rest = content;
  // a closing tag with no opening one before it: everything before it was thinking
  const orphan = /^([\s\S]*?)<\/(think|thinking|reasoning)>/i.exec(rest);
  if (orphan && !OPEN.test(orphan[1] as string)) {
    thoughts.push(orphan[1] as string);
    rest = rest.slice(orphan[0].length);
  }
  for (;;) {
    const open = OPEN.exec(rest);
    if (!open) break;
    const tag = (open[1] as string).toLowerCase();
    const start = open.index;
    const close = rest.toLowerCase().indexOf(`</${tag}>`, start + open[0].length);
    if (close === -1) {
      // cut off while thinking: the rest is thinking
      thoughts.push(rest.slice(start + open[0].length));
      rest = rest.slice(0, start);
      break;
    }
    thoughts.push(rest.slice(start + open[0].length, close));
    rest = rest.slice(0, start) + rest.slice(close + tag.length + 3);
  }
  const reasoning = joinParts(thoughts);
  return { text: orNull(reasoning === null ? rest : rest.trim()), reasoning };
}

/**
 * The streamed form: fed the content deltas, returns what may be shown as it arrives (the text
 * outside thinking blocks), holding back a tail that may be the start of a tag.
 */
export class ReasoningStreamFilter {
  #inside: string | null = null;
  #pending = '';
  /** after a block closed: the blank lines that followed it are not shown */
  #afterBlock = false;

  /** The visible part of `delta` (may be empty). */
  push(delta: string): string {
    let input = this.#pending + delta;
    this.#pending = '';
    let out = '';
    while (input !== '') {
      if (this.#inside === null) {
        if (this.#afterBlock) {
          input = input.replace(/^\s+/, '');
          if (input === '') break;
          this.#afterBlock = false;
        }
        const at = input.indexOf('<');
        if (at === -1) {
          out += input;
          break;
        }
        out += input.slice(0, at);
        input = input.slice(at);
        const match = /^<(think|thinking|reasoning)>/i.exec(input);
        if (match) {
          this.#inside = (match[1] as string).toLowerCase();
          input = input.slice(match[0].length);
          continue;
        }
        if (TAGS.some((t) => `<${t}>`.startsWith(input.toLowerCase()))) {
          this.#pending = input; // maybe a tag cut in two: wait for the next delta
          break;
        }
        out += '<';
        input = input.slice(1);
      } else {
        const close = `</${this.#inside}>`;
        const at = input.toLowerCase().indexOf(close);
        if (at !== -1) {
          this.#inside = null;
          this.#afterBlock = true;
          input = input.slice(at + close.length);
          continue;
        }
        // keep a tail that may be the start of the closing tag
        for (let k = Math.min(close.length - 1, input.length); k > 0; k--) {
          if (close.startsWith(input.slice(-k).toLowerCase())) {
            this.#pending = input.slice(-k);
            break;
          }
        }
        break;
      }
    }
    return out;
  }

  /** What is still held back once the stream ended (a lone `<` that was not a tag). */
  end(): string {
    const tail = this.#inside === null ? this.#pending : '';
    this.#pending = '';
    return tail;
  }
}
