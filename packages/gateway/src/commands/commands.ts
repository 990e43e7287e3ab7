/** The gateway's command table: built-in slash commands, plugin commands, then skills (`/skill-name`). */
import type { SkillCommands } from '@hermes/agent';
import type { ApprovalAnswer } from '@hermes/protocol';
import type { Tier } from '../access/access-settings.js';
import { ADMIN_COMMANDS } from '../access/command-access.js';

export interface CommandContext {
  platform: string;
  chatId: string;
  userId: string;
  sessionKey: string;
  args: string;
  /** the sender's access tier (absent: admin) */
  tier?: 'admin' | 'user';
}

export interface CommandServices {
  resetSession(sessionKey: string, platform: string): Promise<string>;
  /** stops the session's run here, or on the instance running it (a cluster) */
  stopRun(sessionKey: string): Promise<boolean>;
  status(sessionKey: string): string | Promise<string>;
  /** `/model [provider:]model`: show or switch this chat's model */
  model(ctx: CommandContext): Promise<string> | string;
  /** `/reasoning [show|hide]`: whether this chat sees the model's thinking (turn/reasoning-display.ts) */
  reasoning(ctx: CommandContext): Promise<string>;
  /** `/voice [on|off|auto]`: whether this chat's answers come as a voice note too (turn/voice-mode.ts) */
  voice(ctx: CommandContext): Promise<string>;
  /** `/title`, `/sessions`, `/resume`, `/undo`, `/retry` (session-commands.ts) */
  title(ctx: CommandContext): Promise<string>;
  sessions(ctx: CommandContext): Promise<string>;
  resume(ctx: CommandContext): Promise<string>;
  undo(ctx: CommandContext): Promise<string>;
  /** takes the last exchange back: the text to ask again, or why not */
  retry(ctx: CommandContext): Promise<{ ok: true; text: string } | { ok: false; reply: string }>;
  /** `/usage`: this session's tokens, the sender's day and limits, the provider account's limits */
  usage(ctx: CommandContext): string | Promise<string>;
  /** compresses the session's history now (the context engine) and says what it did */
  compress(sessionKey: string, platform: string): Promise<string>;
  plugins(): string;
  enqueue(ctx: CommandContext, mode: 'queue' | 'steer'): string;
  setHome(platform: string, chatId: string): string;
  /** answers the approval waiting in this chat for this user (chat-approvals.ts) */
  answerApproval(ctx: CommandContext, answer: ApprovalAnswer): string;
  pluginCommands(): ReadonlyMap<
    string,
    { description: string; handler: (args: string) => unknown; adminOnly?: boolean | undefined }
  >;
  /** the skills invocable as `/name` (absent: none) */
  skills?: SkillCommands;
  /** `/link`, `/link CODE`: joins the sender's identities on two platforms; `/unlink` (`unlink`) undoes it (users/link-command.ts) */
  link(ctx: CommandContext, unlink?: boolean): Promise<string>;
  /** quick_commands: `/name` aliases, listed by /help (absent: none) */
  quickCommands?: Readonly<Record<string, string>>;
}

export interface BuiltinCommand {
  description: string;
  run(ctx: CommandContext, services: CommandServices): Promise<string> | string;
}

export const BUILTIN_COMMANDS: Readonly<Record<string, BuiltinCommand>> = {
  help: { description: 'list the commands', run: (c, s) => helpText(s, c.tier ?? 'admin') },
  new: { description: 'start a fresh session', run: (c, s) => s.resetSession(c.sessionKey, c.platform) },
  reset: { description: 'same as /new', run: (c, s) => s.resetSession(c.sessionKey, c.platform) },
  stop: {
    description: 'cancel the running answer',
    run: async (c, s) => ((await s.stopRun(c.sessionKey)) ? 'Stopped.' : 'Nothing is running.'),
  },
  status: { description: 'this session and the gateway', run: (c, s) => s.status(c.sessionKey) },
  model: { description: "/model [provider:]model: show or switch this chat's model", run: (c, s) => s.model(c) },
  usage: { description: "this session's tokens, your limits and the account's", run: (c, s) => s.usage(c) },
  reasoning: {
    description: "/reasoning show|hide: the model's thinking above its answers in this chat",
    run: (c, s) => s.reasoning(c),
  },
  voice: {
    description: '/voice on|off|auto: answers as a voice note too (auto: when you sent one)',
    run: (c, s) => s.voice(c),
  },
  title: { description: '/title NAME: name this session (alone: its name)', run: (c, s) => s.title(c) },
  sessions: { description: "this chat's sessions, to /resume one", run: (c, s) => s.sessions(c) },
  resume: { description: '/resume N: go back to a session of /sessions', run: (c, s) => s.resume(c) },
  undo: { description: 'take back your last message and its answer', run: (c, s) => s.undo(c) },
  retry: {
    description: 'take back your last message and ask it again',
    run: async (c, s) => {
      const taken = await s.retry(c);
      return taken.ok ? s.enqueue({ ...c, args: taken.text }, 'queue') : taken.reply;
    },
  },
  compress: {
    description: "summarize this session's older messages now",
    run: (c, s) => s.compress(c.sessionKey, c.platform),
  },
  plugins: { description: 'the plugins and their state', run: (_c, s) => s.plugins() },
  queue: { description: '/queue TEXT: answer TEXT after the running turn', run: (c, s) => s.enqueue(c, 'queue') },
  steer: { description: '/steer TEXT: hand TEXT to the running turn', run: (c, s) => s.enqueue(c, 'steer') },
  approve: {
    description: '/approve [session|always]: allow the command waiting for your approval',
    run: (c, s) => {
      const answer = ({ '': 'once', once: 'once', session: 'session', always: 'always' } as const)[
        c.args.toLowerCase()
      ];
      return answer ? s.answerApproval(c, answer) : 'Usage: /approve, /approve session or /approve always';
    },
  },
  deny: { description: 'deny the command waiting for your approval', run: (c, s) => s.answerApproval(c, 'deny') },
  sethome: {
    description: 'make this chat the home channel for deliveries',
    run: (c, s) => s.setHome(c.platform, c.chatId),
  },
  link: {
    description: '/link gives a code; /link CODE on another platform makes both accounts one user',
    run: (c, s) => s.link(c),
  },
  unlink: {
    description: 'undoes /link: this account is its own user again',
    run: (c, s) => s.link(c, true),
  },
};

/** Every command name with its description: built-ins first, then plugin commands not shadowing them. */
export function commandList(
  pluginCommands: ReadonlyMap<string, { description: string }>,
): { name: string; description: string }[] {
  const list = Object.entries(BUILTIN_COMMANDS).map(([name, c]) => ({ name, description: c.description }));
  for (const [name, c] of pluginCommands) {
    if (!(name in BUILTIN_COMMANDS)) list.push({ name, description: c.description || 'plugin command' });
  }
  return list;
}

/** `/help`: a `user` sees which commands are for admins (running one is refused with why). */
function helpText(services: CommandServices, tier: Tier): string {
  const admins = (adminOnly: boolean) => (adminOnly && tier === 'user' ? ' (admins only)' : '');
  const lines = Object.entries(BUILTIN_COMMANDS).map(
    ([name, c]) => `/${name} · ${c.description}${admins(name in ADMIN_COMMANDS)}`,
  );
  for (const [name, c] of services.pluginCommands()) {
    lines.push(`/${name} · ${c.description || 'plugin command'}${admins(c.adminOnly === true)}`);
  }
  const skills = services.skills?.list() ?? [];
  const skillLines = skills.map((s) => `/${s.name} · ${s.description}`);
  const skillPart = skillLines.length > 0 ? `\n\nSkills (/name then your text):\n${skillLines.join('\n')}` : '';
  const quick = Object.entries(services.quickCommands ?? {}).map(([name, value]) => `/${name} · ${value}`);
  const quickPart = quick.length > 0 ? `\n\nQuick commands:\n${quick.join('\n')}` : '';
  return `Commands:\n${lines.join('\n')}${skillPart}${quickPart}`;
}

/**
 * The user message of `/name args` when `name` is a skill and no built-in or plugin command
 * (those win); null otherwise.
 */
export async function skillTurnText(name: string, args: string, services: CommandServices): Promise<string | null> {
  if (!services.skills || name in BUILTIN_COMMANDS || services.pluginCommands().has(name)) return null;
  return services.skills.message(name, args);
}

/** True when `/name` is a built-in, plugin or skill command (those win over quick_commands). */
export function isCommand(name: string, services: Pick<CommandServices, 'pluginCommands' | 'skills'>): boolean {
  return (
    name in BUILTIN_COMMANDS ||
    services.pluginCommands().has(name) ||
    (services.skills?.list() ?? []).some((s) => s.name === name)
  );
}

/** Parses `/name args` (a `@bot` suffix already stripped); null when the text is not a command. */
export function parseCommand(text: string): { name: string; args: string } | null {
  const m = /^\/([A-Za-z0-9_:-]+)(?:@\S+)?(?:\s+([\s\S]*))?$/.exec(text.trim());
  return m?.[1] ? { name: m[1].toLowerCase(), args: (m[2] ?? '').trim() } : null;
}

/** Runs a command; unknown commands get a helpful answer. */
export async function runCommand(name: string, ctx: CommandContext, services: CommandServices): Promise<string> {
  const builtin = BUILTIN_COMMANDS[name];
  if (builtin) return builtin.run(ctx, services);
  const plugin = services.pluginCommands().get(name);
  if (plugin) {
    const reply = await plugin.handler(ctx.args);
    return typeof reply === 'string' ? reply : '';
  }
  return `Unknown command /${name}. Send /help for the list.`;
}
