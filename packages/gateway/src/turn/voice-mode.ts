/**
 * `/voice on|off|auto`: whether a chat's answers come as a voice note too. `auto` answers a
 * message that carried a voice note (or any audio) with voice; `on` answers every message with
 * voice; `off` never. The choice is the chat's, kept in platform state under `voice:<chatId>` so it
 * survives a restart; a chat that did not choose follows `tts.voice_answers` (default auto).
 */
import type { MessageEvent } from '@hermes/protocol';
import type { CommitWork } from '@hermes/store';

export type VoiceMode = 'auto' | 'on' | 'off';
const MODES: readonly VoiceMode[] = ['auto', 'on', 'off'];

export const voiceKey = (chatId: string): string => `voice:${chatId}`;

export interface VoiceModePorts {
  platformState: { get(platform: string, key: string): Promise<string | undefined> | string | undefined };
  commit: CommitWork;
  /** tts.voice_answers: the mode of a chat that did not choose */
  defaultMode: VoiceMode;
}

const isMode = (value: string | undefined): value is VoiceMode => MODES.includes(value as VoiceMode);

/** The chat's voice mode: its `/voice` choice, else the default. */
export async function voiceMode(ports: VoiceModePorts, platform: string, chatId: string): Promise<VoiceMode> {
  const stored = await ports.platformState.get(platform, voiceKey(chatId));
  return isMode(stored) ? stored : ports.defaultMode;
}

/** True when the message carried a voice note or other audio (what `auto` answers with voice). */
export function spokeToUs(event: MessageEvent): boolean {
  return (event.attachments ?? []).some((a) => a.kind === 'audio' || (a.mimeType ?? '').startsWith('audio/'));
}

/** Whether an answer to `event` in a chat of this mode comes as a voice note too. */
export function wantsVoice(mode: VoiceMode, event: MessageEvent): boolean {
  return mode === 'on' || (mode === 'auto' && spokeToUs(event));
}

const SAYS: Readonly<Record<VoiceMode, string>> = {
  auto: 'Voice answers: auto. A voice note is answered with a voice note too (the text always comes).',
  on: 'Voice answers: on. Every answer in this chat comes as a voice note too (the text always comes).',
  off: 'Voice answers: off. Answers in this chat come as text only.',
};

/** The `/voice [on|off|auto]` command's answer (and its change); `available` null or why voice cannot be made. */
export async function voiceCommand(
  ports: VoiceModePorts,
  ctx: { platform: string; chatId: string; args: string },
  unavailable: string | null,
): Promise<string> {
  const arg = ctx.args.trim().toLowerCase();
  const note = unavailable === null ? '' : `\n(No voice can be made now: ${unavailable}.)`;
  if (arg === '') {
    const mode = await voiceMode(ports, ctx.platform, ctx.chatId);
    return `${SAYS[mode]} /voice on, /voice off or /voice auto changes it.${note}`;
  }
  if (!isMode(arg)) return 'Usage: /voice, /voice on, /voice off or /voice auto';
  await ports.commit([{ kind: 'platformState.set', platform: ctx.platform, key: voiceKey(ctx.chatId), value: arg }]);
  return `${SAYS[arg]}${arg === 'off' ? '' : note}`;
}
