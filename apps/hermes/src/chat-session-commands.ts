/**
 * `/title`, `/sessions`, `/resume`, `/undo`, `/retry` and `/usage` in `hermes chat`: the gateway's
 * session commands (the same code and answers) on the chat's sessions (its session key, `cli:chat`).
 * A command only runs at the prompt, never during a turn; each turn reads its history from the
 * store, so nothing is cached to forget. The terminal's user has no tier limits (`access.*` are the
 * gateway's).
 */
import { accountLimitsText } from '@hermes/agent';
import {
  type CommandContext,
  resumeCommand,
  retryText,
  sessionsCommand,
  titleCommand,
  undoCommand,
  usageCommand,
} from '@hermes/gateway';
import { CLI_IDENTITY } from '@hermes/protocol';
import type { SessionRow } from '@hermes/store';
import type { AgentRuntime } from './runtime.js';
import { cliSessionKey } from './session-turn.js';

export const CHAT_SESSION_COMMANDS: readonly string[] = ['title', 'sessions', 'resume', 'undo', 'retry', 'usage'];

export type ChatSessionOutcome = { reply: string; switchedTo?: SessionRow } | { retry: string };

/** Runs one session command of `hermes chat` on `current`, the chat's session. */
export async function chatSessionCommand(
  rt: Pick<AgentRuntime, 'store' | 'hooks' | 'models'>,
  current: { id: string },
  name: string,
  args: string,
): Promise<ChatSessionOutcome> {
  let switchedTo: SessionRow | undefined;
  const ports = {
    sessions: rt.store.sessions,
    transcripts: rt.store.transcripts,
    busy: () => false,
    async switchTo(_key: string, platform: string, _user: string, targetId: string) {
      await rt.hooks.invoke('on_session_finalize', { sessionId: current.id, platform, reason: 'switch' });
      await rt.store.sessions.end(current.id, 'switch');
      const reopened = await rt.store.sessions.reopen(targetId);
      switchedTo = await rt.store.sessions.get(targetId);
      return reopened;
    },
    forgetHistory: async () => undefined,
    now: Date.now,
  };
  const ctx: CommandContext = {
    platform: 'cli',
    chatId: 'local',
    userId: 'local',
    sessionKey: cliSessionKey('cli-chat'),
    args,
    tier: 'admin',
  };
  if (name === 'usage') {
    const { store, models } = rt;
    const reply = await usageCommand(
      {
        sessions: store.sessions,
        transcripts: store.transcripts,
        ownerOf: (identity) => store.identityLinks.ownerOf(identity),
        identityOf: () => CLI_IDENTITY,
        counters: store.usageCounters,
        now: Date.now,
        async sessionModel(sessionId) {
          const choice = await models.current(sessionId);
          return { model: choice.model, profile: models.providers.profile(choice.provider) };
        },
        accountLimits: (profile) => accountLimitsText(profile),
      },
      ctx,
    );
    return { reply };
  }
  if (name === 'retry') {
    const taken = await retryText(ports, ctx);
    return taken.ok ? { retry: taken.text } : { reply: taken.reply };
  }
  const run = { title: titleCommand, sessions: sessionsCommand, resume: resumeCommand, undo: undoCommand }[name];
  if (!run) return { reply: `Unknown command /${name}` };
  const reply = await run(ports, ctx);
  return switchedTo ? { reply, switchedTo } : { reply };
}
