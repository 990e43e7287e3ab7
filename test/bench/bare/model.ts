// What the bare bots share: their settings, the ready line, and the one thing a bot asking the model
// does per message, written as a developer writes it out of the box: the official `openai` client
// (`new OpenAI({ baseURL, apiKey })`, `client.chat.completions.create({ model, messages })`, its
// defaults untouched), each chat's history kept in memory and sent whole with every request, as
// Hermes sends its history. With BENCH_FIXED_ANSWER set the bot is a plain echo bot instead: it
// answers that text, asks no model and never loads the `openai` package.
import type OpenAI from 'openai';

/** The bot's answer to `text` in the chat `chat` (any string that names the conversation). */
export type Ask = (chat: string, text: string) => Promise<string>;

/** Reads a required setting from the environment, naming it when it is missing. */
export function setting(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`bare bot: ${name} is not set`);
  return value;
}

/**
 * The plain echo bot's answer (BENCH_FIXED_ANSWER), or the model's through the `openai` client
 * against BENCH_MODEL_URL (…/v1): the chat's history so far and the user's text as its messages.
 */
export async function answerer(): Promise<Ask> {
  const fixed = process.env.BENCH_FIXED_ANSWER;
  if (fixed !== undefined && fixed !== '') return async () => fixed;
  const { default: OpenAIClient } = await import('openai');
  const client = new OpenAIClient({ baseURL: setting('BENCH_MODEL_URL'), apiKey: 'bare-bench' });
  const histories = new Map<string, OpenAI.Chat.ChatCompletionMessageParam[]>();
  return async (chat, text) => {
    let messages = histories.get(chat);
    if (messages === undefined) {
      messages = [];
      histories.set(chat, messages);
    }
    messages.push({ role: 'user', content: text });
    const completion = await client.chat.completions.create({ model: 'fake-model', messages });
    const answer = completion.choices[0]?.message.content ?? '';
    messages.push({ role: 'assistant', content: answer });
    return answer;
  };
}

/** Tells the bench (on stdout, one JSON line) that the bot is ready, with anything it needs to know. */
export function announceReady(extra: Record<string, unknown> = {}): void {
  process.stdout.write(`${JSON.stringify({ ready: true, ...extra })}\n`);
}

/** Runs `stop` on SIGTERM/SIGINT and exits. */
export function exitOnSignal(stop: () => Promise<void>): void {
  const onSignal = () => {
    stop().finally(() => process.exit(0));
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}
