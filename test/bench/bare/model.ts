// The one model request a bare echo bot makes per message: the user's text POSTed to an
// OpenAI-compatible chat endpoint with undici's `request` over its keep-alive global pool (the HTTP
// client Hermes's model client uses too; Node's `fetch` costs more CPU per request than either).
import { request } from 'undici';

const FIXED_ANSWER = process.env.BENCH_FIXED_ANSWER || undefined;

interface Completion {
  choices?: { message?: { content?: unknown } }[];
}

/** Reads a required setting from the environment, naming it when it is missing. */
export function setting(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`bare echo bot: ${name} is not set`);
  return value;
}

/**
 * POSTs `text` as one user message to `${baseUrl}/chat/completions`; resolves with the answer's text.
 * With BENCH_FIXED_ANSWER set the bot is a plain echo bot: it answers that text and asks no model
 * (issue 17's baseline, the bot that does nothing but receive and send).
 */
export async function askModel(baseUrl: string, text: string): Promise<string> {
  if (FIXED_ANSWER !== undefined) return FIXED_ANSWER;
  const response = await request(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer bare-bench' },
    body: JSON.stringify({ model: 'fake-model', messages: [{ role: 'user', content: text }] }),
  });
  if (response.statusCode !== 200) {
    await response.body.dump();
    throw new Error(`model answered ${response.statusCode}`);
  }
  const body = (await response.body.json()) as Completion;
  const content = body.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new Error('model answer without text');
  return content;
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
