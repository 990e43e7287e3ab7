/**
 * `/reasoning show|hide`: whether a chat sees the model's thinking above its answers. Hidden by
 * default; the choice is the chat's (every user of a group sees the same answers), kept in
 * platform state under `reasoning:<chatId>` so it survives a restart. The thinking is never in
 * the transcript or the history sent back to the model (packages/agent/src/reasoning.ts).
 */
import type { CommitWork } from '@hermes/store';

export const reasoningKey = (chatId: string): string => `reasoning:${chatId}`;
/** thinking longer than this is cut (its end kept: the conclusions come last) */
export const REASONING_SHOWN_MAX_CHARS = 3_000;

export interface ReasoningDisplayPorts {
  platformState: { get(platform: string, key: string): Promise<string | undefined> | string | undefined };
  commit: CommitWork;
}

/** true when the chat asked to see the thinking */
export async function reasoningShown(ports: ReasoningDisplayPorts, platform: string, chatId: string): Promise<boolean> {
  return (await ports.platformState.get(platform, reasoningKey(chatId))) === 'show';
}

/** The `/reasoning [show|hide]` command's answer (and its change). */
export async function reasoningCommand(
  ports: ReasoningDisplayPorts,
  ctx: { platform: string; chatId: string; args: string },
): Promise<string> {
  const arg = ctx.args.trim().toLowerCase();
  if (arg === '') {
    const shown = await reasoningShown(ports, ctx.platform, ctx.chatId);
    return `The model's thinking is ${shown ? 'shown above' : 'hidden from'} its answers in this chat. /reasoning show or /reasoning hide changes it.`;
  }
  if (arg !== 'show' && arg !== 'hide') return 'Usage: /reasoning, /reasoning show or /reasoning hide';
  const key = reasoningKey(ctx.chatId);
  await ports.commit([
    arg === 'show'
      ? { kind: 'platformState.set', platform: ctx.platform, key, value: 'show' }
      : { kind: 'platformState.delete', platform: ctx.platform, key },
  ]);
  return arg === 'show'
    ? "The model's thinking will be shown above its answers in this chat (when it thinks aloud)."
    : "The model's thinking is hidden again in this chat.";
}

/** The answer with the thinking above it, as a chat shows it. */
export function withReasoning(answer: string, reasoning: string | undefined): string {
  if (reasoning === undefined || reasoning.trim() === '') return answer;
  let shown = reasoning.trim();
  if (shown.length > REASONING_SHOWN_MAX_CHARS) shown = `…${shown.slice(-REASONING_SHOWN_MAX_CHARS)}`;
  return `💭 Thinking:\n${shown}\n\n${answer}`;
}
