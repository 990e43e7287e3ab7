/**
 * `hermes sessions list|show|export|delete|prune`: the stored conversations of the configured
 * state backend (state.db or PostgreSQL), for the operator at the shell. `prune` is `hermes state
 * prune`. Deleting a session that is still active is refused while a gateway runs on the home
 * (its next turn would write to a session that is gone).
 */
import { writeFileSync } from 'node:fs';
import { type ChatMessage, EXIT } from '@hermes/protocol';
import type { AsyncStore, SessionRow } from '@hermes/store';
import { CliExit } from '../cli-error.js';
import type { GlobalOptions } from '../main.js';
import { liveOwner, lockPath } from '../service/pid-lock.js';
import { loadSettings } from '../settings.js';
import { withStateStore } from '../state-store.js';

const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z'));
const state = (s: SessionRow) => (s.endedAt === null ? 'active' : `ended (${s.endReason ?? 'unknown'})`);

function parseLimit(text: string | undefined): number {
  if (text === undefined) return 20;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1)
    throw new CliExit(EXIT.USAGE, `--limit must be a whole number above 0 (got ${JSON.stringify(text)})`);
  return n;
}

async function sessionOrExit(store: AsyncStore, id: string): Promise<SessionRow> {
  const session = await store.sessions.get(id);
  if (!session) throw new CliExit(EXIT.ERROR, `no session ${id} (hermes sessions list shows the ids)`);
  return session;
}

/** `hermes sessions list`: the most recently updated sessions. */
export async function sessionsList(
  options: GlobalOptions,
  opts: { platform?: string; limit?: string; json?: boolean },
): Promise<void> {
  const limit = parseLimit(opts.limit);
  const rows = await withStateStore(loadSettings(options), async (store) => {
    const sessions = await store.sessions.list({ limit, ...(opts.platform ? { platform: opts.platform } : {}) });
    return Promise.all(sessions.map(async (s) => ({ ...s, messages: await store.transcripts.count(s.id) })));
  });
  if (opts.json) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  if (rows.length === 0) {
    process.stdout.write('no sessions\n');
    return;
  }
  for (const s of rows) {
    const title = s.title ? ` "${s.title}"` : '';
    process.stdout.write(
      `${s.id}  ${s.platform}  ${s.messages} messages  updated ${iso(s.updatedAt)}  ${state(s)}${title}\n    key ${s.sessionKey}${s.userKey ? `  user ${s.userKey}` : ''}\n`,
    );
  }
}

const callsOf = (m: ChatMessage) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []);

function showMessage(m: ChatMessage): string {
  const calls = callsOf(m)
    .map((c) => `  → ${c.function.name}(${c.function.arguments})`)
    .join('\n');
  const who = m.role === 'tool' ? `tool ${m.name ?? m.tool_call_id}`.trim() : m.role;
  const text = typeof m.content === 'string' ? m.content : '';
  return `[${who}] ${text}${calls ? `\n${calls}` : ''}`;
}

/** `hermes sessions show ID`: the session and its transcript. */
export async function sessionsShow(options: GlobalOptions, id: string, opts: { json?: boolean }): Promise<void> {
  const { session, messages } = await withStateStore(loadSettings(options), async (store) => ({
    session: await sessionOrExit(store, id),
    messages: await store.transcripts.list(id),
  }));
  if (opts.json) {
    process.stdout.write(`${JSON.stringify({ session, messages }, null, 2)}\n`);
    return;
  }
  const title = session.title ? ` "${session.title}"` : '';
  process.stdout.write(
    `${session.id}${title}  ${session.platform}  ${state(session)}\ncreated ${iso(session.createdAt)}  updated ${iso(session.updatedAt)}  ${messages.length} messages\n\n`,
  );
  for (const m of messages) process.stdout.write(`${showMessage(m)}\n`);
}

function markdown(session: SessionRow, messages: readonly ChatMessage[]): string {
  const lines = [`# ${session.title ?? session.id}`, '', `- session: ${session.id}`, `- platform: ${session.platform}`];
  lines.push(`- created: ${iso(session.createdAt)}`, `- updated: ${iso(session.updatedAt)}`, '');
  for (const m of messages) {
    if (m.role === 'system') continue;
    const text = typeof m.content === 'string' ? m.content : '';
    if (m.role === 'tool') {
      lines.push(`> tool ${m.name ?? ''}: ${text.split('\n').join('\n> ')}`, '');
      continue;
    }
    if (text !== '') lines.push(`**${m.role}**: ${text}`, '');
    for (const c of callsOf(m)) lines.push(`*calls ${c.function.name}* \`${c.function.arguments}\``, '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** `hermes sessions export ID [-o FILE] [--format json|md]`: the session as JSON (default) or Markdown. */
export async function sessionsExport(
  options: GlobalOptions,
  id: string,
  opts: { output?: string; format?: string },
): Promise<void> {
  const format = opts.format ?? 'json';
  if (format !== 'json' && format !== 'md')
    throw new CliExit(EXIT.USAGE, `--format must be json or md (got ${JSON.stringify(format)})`);
  const { session, messages } = await withStateStore(loadSettings(options), async (store) => ({
    session: await sessionOrExit(store, id),
    messages: await store.transcripts.list(id),
  }));
  const text = format === 'md' ? markdown(session, messages) : `${JSON.stringify({ session, messages }, null, 2)}\n`;
  if (opts.output === undefined) {
    process.stdout.write(text);
    return;
  }
  writeFileSync(opts.output, text, { mode: 0o600 });
  process.stderr.write(`exported ${messages.length} messages of ${id} to ${opts.output}\n`);
}

/** `hermes sessions delete ID...`: each session with its transcript and what is kept about it. */
export async function sessionsDelete(options: GlobalOptions, ids: string[]): Promise<void> {
  const settings = loadSettings(options);
  const running = liveOwner(lockPath(settings.home));
  await withStateStore(settings, async (store) => {
    const sessions = await Promise.all(ids.map((id) => sessionOrExit(store, id)));
    const active = sessions.filter((s) => s.endedAt === null);
    if (running && active.length > 0) {
      throw new CliExit(
        EXIT.ERROR,
        `${active.map((s) => s.id).join(', ')} ${active.length === 1 ? 'is' : 'are'} still active and a gateway is running for ${settings.home} (pid ${running.pid}): ` +
          'end it in its chat first (/new), or stop the gateway',
      );
    }
    for (const s of sessions) {
      const messages = await store.transcripts.count(s.id);
      await store.sessions.remove(s.id);
      process.stdout.write(`deleted ${s.id} (${messages} messages)\n`);
    }
  });
}
