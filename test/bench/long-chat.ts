// The pipeline bench's long-chat row: one chat that keeps talking for the whole window. The same
// system answers 300 messages in fresh chats (a new chat every 10 messages), then one chat until it
// has had LONG_CHAT_EXCHANGES exchanges (two messages of history each: 3,000 by default), and its
// CPU per message over the last 300 is set against the fresh chats'. Both send the model the
// whole history every turn (the bytes the model must receive): Hermes from its session, the bare
// bot asking the model with the `openai` client from the array it keeps per chat in memory.
import { runClosedLoop } from './closed-loop.js';
import type { ModelProcess } from './model-process.js';
import { type Round, roundOf } from './process-figures.js';
import { expectModelAnswer, type RunningSystem } from './rig.js';
import { smokeOr } from './smoke.js';

/** exchanges in the long chat (each stores the user's message and the reply: twice as many rows) */
export const LONG_CHAT_EXCHANGES = smokeOr(1500, 40);
/** the measured window at each end */
const WINDOW = smokeOr(300, 10);

/** A long chat's size: its exchanges and the window measured at each end (a slow platform's are smaller). */
export interface LongChatSize {
  exchanges: number;
  window: number;
}
export const LONG_CHAT_SIZE: LongChatSize = { exchanges: LONG_CHAT_EXCHANGES, window: WINDOW };
const REPLY_TIMEOUT_MS = 30_000;

export interface LongChatFigures {
  label: string;
  fresh: Round;
  long: Round;
}

async function window<C>(
  system: RunningSystem<C>,
  model: ModelProcess,
  chat: C | null,
  messages: number,
): Promise<Round> {
  system.takeApiCalls();
  await model.takeRequestCount();
  const cpuBefore = system.proc.cpuMs();
  const result = await runClosedLoop(system.traffic, {
    chats: [chat ?? system.traffic.newChat()],
    ...(chat === null ? { turnsPerChat: 10 } : {}),
    messages,
    capMs: 600_000,
    replyTimeoutMs: REPLY_TIMEOUT_MS,
    expect: expectModelAnswer,
  });
  const cpuMs = system.proc.cpuMs() - cpuBefore;
  return roundOf(result, cpuMs, system.takeApiCalls(), await model.takeRequestCount());
}

/** Fresh chats, then one chat grown to `size.exchanges` exchanges, its last `size.window` measured. */
export async function measureLongChat<C>(
  system: RunningSystem<C>,
  model: ModelProcess,
  size: LongChatSize = LONG_CHAT_SIZE,
): Promise<LongChatFigures> {
  const fresh = await window(system, model, null, size.window);
  const chat = system.traffic.newChat();
  await window(system, model, chat, size.exchanges - size.window);
  const long = await window(system, model, chat, size.window);
  return { label: system.label, fresh, long };
}

const ms = (x: number) => x.toFixed(2);

/** The long-chat table: CPU per message in fresh chats and at the end of the long one, their ratio, p99. */
export function longChatTable(rows: readonly LongChatFigures[], size: LongChatSize = LONG_CHAT_SIZE): string[] {
  const { exchanges, window: measured } = size;
  return [
    `Long chat: one chat that keeps talking (${exchanges.toLocaleString('en-US')} exchanges, ${(2 * exchanges).toLocaleString('en-US')} messages of history by the end), the last ${measured} measured, against ${measured} messages in fresh chats (a new chat every 10):`,
    '',
    '| system | CPU ms/msg, fresh chats | CPU ms/msg, long chat | long / fresh | p99 ms, fresh / long | model requests/msg |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.label} | ${ms(r.fresh.cpuMsPerMsg)} | ${ms(r.long.cpuMsPerMsg)} | ${(r.long.cpuMsPerMsg / r.fresh.cpuMsPerMsg).toFixed(2)}× | ${ms(r.fresh.p99)} / ${ms(r.long.p99)} | ${r.long.modelRequestsPerMsg.toFixed(2)} |`,
    ),
  ];
}
