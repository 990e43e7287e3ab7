/**
 * The session commands of a chat: `/title NAME`, `/sessions`, `/resume N`, `/undo` and `/retry`.
 * They work on the sessions of the command's session key only (one chat's, one user's: another
 * chat's or user's sessions are never listed nor resumed), and refuse while an answer is running
 * (the transcript is being written).
 */
import type { ChatMessage } from '@hermes/protocol';
import type { AsyncStore } from '@hermes/store';
import type { CommandContext } from './commands.js';

/** how many of the chat's sessions /sessions lists (and /resume N picks from) */
export const SESSIONS_LISTED = 10;
export const TITLE_MAX_CHARS = 100;

export interface SessionCommandPorts {
  sessions: Pick<AsyncStore['sessions'], 'activeByKey' | 'byKey' | 'setTitle'>;
  transcripts: Pick<AsyncStore['transcripts'], 'count' | 'dropLastExchange'>;
  /** true while a turn of the key runs */
  busy(sessionKey: string): boolean;
  /** the session stage's switch (`/resume`) */
  switchTo(sessionKey: string, platform: string, userId: string, targetId: string): Promise<boolean>;
  /** the session stage forgets the key's cached history */
  forgetHistory(sessionKey: string): Promise<void>;
  now(): number;
}

const BUSY = 'An answer is still running here: wait for it or /stop it first.';

function ago(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}

/** `/title` shows the session's title, `/title NAME` sets it. */
export async function titleCommand(ports: SessionCommandPorts, ctx: CommandContext): Promise<string> {
  const active = await ports.sessions.activeByKey(ctx.sessionKey);
  if (!active) return 'No session yet: send a message first.';
  const title = ctx.args.trim().replace(/\s+/g, ' ').slice(0, TITLE_MAX_CHARS);
  if (title === '')
    return active.title ? `This session is "${active.title}".` : 'This session has no title: /title NAME gives it one.';
  await ports.sessions.setTitle(active.id, title);
  return `This session is now "${title}".`;
}

/** `/sessions`: this chat's sessions, newest first, numbered for /resume. */
export async function sessionsCommand(ports: SessionCommandPorts, ctx: CommandContext): Promise<string> {
  const rows = await ports.sessions.byKey(ctx.sessionKey, SESSIONS_LISTED);
  if (rows.length === 0) return 'No sessions here yet.';
  const now = ports.now();
  const lines = await Promise.all(
    rows.map(async (s, i) => {
      const count = await ports.transcripts.count(s.id);
      const name = s.title ? `"${s.title}"` : 'untitled';
      const current = s.endedAt === null ? ' (current)' : '';
      return `${i + 1}. ${name} · ${count} messages · ${ago(now - s.updatedAt)}${current}`;
    }),
  );
  return `${lines.join('\n')}\n/resume N goes back to one, /title NAME names the current one.`;
}

/** `/resume N` (a number of /sessions) or `/resume ID`: that session is this chat's again. */
export async function resumeCommand(ports: SessionCommandPorts, ctx: CommandContext): Promise<string> {
  const arg = ctx.args.trim();
  if (arg === '') return 'Usage: /resume N (a number from /sessions) or /resume SESSION_ID';
  if (ports.busy(ctx.sessionKey)) return BUSY;
  const rows = await ports.sessions.byKey(ctx.sessionKey, /^\d+$/.test(arg) ? SESSIONS_LISTED : 1000);
  const target = /^\d+$/.test(arg) ? rows[Number(arg) - 1] : rows.find((s) => s.id === arg);
  if (!target) return `There is no session ${arg} here: /sessions lists this chat's sessions.`;
  if (target.endedAt === null) return 'That is the current session.';
  await ports.switchTo(ctx.sessionKey, ctx.platform, ctx.userId, target.id);
  const count = await ports.transcripts.count(target.id);
  return `Resumed ${target.title ? `"${target.title}"` : 'the session'} (${count} messages): the conversation goes on from there.`;
}

/** The text of a stored user message. */
const userText = (message: ChatMessage | undefined): string =>
  typeof message?.content === 'string' ? message.content : '';

/** Drops the session's last exchange; what was dropped, or the refusal. */
async function dropLast(
  ports: SessionCommandPorts,
  ctx: CommandContext,
): Promise<{ ok: true; text: string; count: number } | { ok: false; reply: string }> {
  if (ports.busy(ctx.sessionKey)) return { ok: false, reply: BUSY };
  const active = await ports.sessions.activeByKey(ctx.sessionKey);
  if (!active) return { ok: false, reply: 'No session yet: nothing to take back.' };
  const dropped = await ports.transcripts.dropLastExchange(active.id);
  await ports.forgetHistory(ctx.sessionKey);
  if (dropped.length === 0) return { ok: false, reply: 'Nothing to take back in this session.' };
  return { ok: true, text: userText(dropped[0]), count: dropped.length };
}

const preview = (text: string) => (text.length > 60 ? `${text.slice(0, 60)}…` : text);

/** `/undo`: the last message and its answer are taken out of the session (the model no longer sees them). */
export async function undoCommand(ports: SessionCommandPorts, ctx: CommandContext): Promise<string> {
  const dropped = await dropLast(ports, ctx);
  if (!dropped.ok) return dropped.reply;
  return `Took back "${preview(dropped.text)}" and its answer (${dropped.count} messages): the model no longer sees them.`;
}

/** `/retry`: the last message is taken back and asked again; the text to hand to the lane, or the refusal. */
export async function retryText(
  ports: SessionCommandPorts,
  ctx: CommandContext,
): Promise<{ ok: true; text: string } | { ok: false; reply: string }> {
  const dropped = await dropLast(ports, ctx);
  if (!dropped.ok) return { ok: false, reply: dropped.reply.replace('take back', 'retry') };
  if (dropped.text.trim() === '')
    return { ok: false, reply: 'The last message had no text to ask again (it was taken back).' };
  return { ok: true, text: dropped.text };
}
