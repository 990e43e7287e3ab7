/**
 * The `builtin` memory provider: MEMORY.md (agent-wide) and one profile per user under
 * HERMES_HOME/memories (memory-files.ts), their entries in the system prompt of each new session
 * (MEMORY.md and the current user's profile, never another user's), and the `memory` tool to edit
 * them: target `user` is always the current user's own profile (the turn's `context.user.key`, an
 * owner identity); target `memory` is written by admins only (tier `admin`).
 * What the tool writes is redacted first (the process's secret redactor): a secret the model
 * copied into a note never lands in the file or in a later system prompt.
 */
import { CLI_IDENTITY, type MemoryProvider, type MemoryProviderTool, type MemorySession } from '@hermes/protocol';
import { optionalString, parseArgs, requiredString, ToolArgumentError } from '../tools/tool-args.js';
import { applyMemoryEdit, type MemoryAction, usedChars } from './memory-edit.js';
import { joinEntries, MEMORY_TARGETS, MemoryFiles, type MemoryTarget } from './memory-files.js';

export const MEMORY_TOOL = 'memory';
export const BUILTIN_MEMORY_PROVIDER = 'builtin';

export interface MemoryLimits {
  /** memory.memory_char_limit (MEMORY.md) */
  memory: number;
  /** memory.user_char_limit (USER.md) */
  user: number;
}

export const DEFAULT_MEMORY_LIMITS: MemoryLimits = { memory: 2200, user: 1375 };

export interface BuiltinMemoryOptions {
  /** HERMES_HOME */
  home: string;
  limits?: MemoryLimits;
  /** the process's secret redactor, applied to what is written */
  redact?: (text: string) => string;
  /** `users.owner`: whose profile the USER.md of before users apart becomes (default `cli:local`) */
  owner?: string;
}

const ACTIONS: readonly MemoryAction[] = ['add', 'replace', 'remove'];
const HEADINGS: Readonly<Record<MemoryTarget, string>> = {
  memory: 'Your notes (MEMORY.md)',
  user: 'About the user (their profile)',
};

function oneOf<T extends string>(args: Record<string, unknown>, name: string, values: readonly T[]): T {
  const value = requiredString(args, name);
  if (!(values as readonly string[]).includes(value)) {
    throw new ToolArgumentError(`Invalid argument "${name}": expected one of ${values.join(', ')}, got "${value}"`);
  }
  return value as T;
}

/** The memory block of a new session's system prompt for `userKey` ('' when both files are empty; no profile without a user). */
export function renderMemoryBlock(files: MemoryFiles, limits: MemoryLimits, userKey: string | undefined): string {
  const parts: string[] = [];
  for (const target of MEMORY_TARGETS) {
    if (target === 'user' && userKey === undefined) continue;
    const entries = files.read(target, userKey ?? '');
    if (entries.length === 0) continue;
    parts.push(`## ${HEADINGS[target]}: ${usedChars(entries)}/${limits[target]} chars\n${joinEntries(entries)}`);
  }
  if (parts.length === 0) return '';
  return [
    '# Memory',
    'What you saved with the memory tool in earlier sessions (as of the start of this session; entries are separated by lines with only "§").',
    ...parts,
  ].join('\n\n');
}

export function createMemoryTool(files: MemoryFiles, limits: MemoryLimits, redact: (text: string) => string) {
  const tool: MemoryProviderTool = {
    name: MEMORY_TOOL,
    writes: true,
    emoji: '🧠',
    schema: {
      name: MEMORY_TOOL,
      description:
        'Save durable facts across sessions. target "memory": your own notes (environment, conventions, lessons); ' +
        'target "user": who the user is and what they prefer. action "add" appends content as a new entry; ' +
        '"replace" swaps the entry containing old_text for content; "remove" deletes the entry containing old_text. ' +
        `Limits: memory ${limits.memory}, user ${limits.user} characters; when full, replace or remove entries. ` +
        "Saved entries show in the system prompt from the next session on (this session's prompt stays as it began). " +
        'Target "user" is the profile of the user you are talking to now; target "memory" is shared by every user and only an admin may change it.',
      parameters: {
        type: 'object',
        properties: {
          action: { type: 'string', enum: [...ACTIONS] },
          target: { type: 'string', enum: [...MEMORY_TARGETS] },
          content: { type: 'string', description: 'the entry (add, replace); short and self-contained' },
          old_text: { type: 'string', description: 'a piece of the existing entry (replace, remove)' },
        },
        required: ['action', 'target'],
      },
    },
    handler: (args, context) => {
      const parsed = parseArgs(() => {
        const action = oneOf(args, 'action', ACTIONS);
        const target = oneOf(args, 'target', MEMORY_TARGETS);
        const content = action === 'remove' ? '' : requiredString(args, 'content');
        if (/^[ \t]*§[ \t]*$/m.test(content)) {
          throw new ToolArgumentError('Invalid argument "content": a line holding only "§" separates entries');
        }
        return { action, target, content: redact(content), oldText: optionalString(args, 'old_text') };
      });
      if (!parsed.ok) return { success: false, error: parsed.error, code: parsed.code };
      const edit = parsed.value;
      const refused = refusal(edit.target, context.user);
      if (refused !== null) return { success: false, error: refused };
      const userKey = context.user?.key ?? '';
      const limit = limits[edit.target];
      const outcome = applyMemoryEdit(files.read(edit.target, userKey), edit, limit);
      if (!outcome.ok) return { success: false, error: outcome.error };
      if (outcome.changed) files.write(edit.target, outcome.entries, userKey);
      return {
        success: true,
        target: edit.target,
        ...(outcome.changed ? {} : { note: 'that entry is already saved' }),
        entries: outcome.entries.length,
        usage: `${usedChars(outcome.entries)}/${limit} chars`,
        shown: 'in the system prompt from the next session on',
      };
    },
  };
  return tool;
}

/** Why this user may not edit this target, or null when they may. */
function refusal(target: MemoryTarget, user: MemorySession['user']): string | null {
  if (user === undefined) return 'memory is per user and this turn has no user identity: nothing was saved';
  if (target === 'memory' && user.tier !== 'admin') {
    return 'target "memory" (MEMORY.md, shared by every user) is changed by admins only; save what concerns this user to target "user"';
  }
  return null;
}

/** The built-in provider over HERMES_HOME/memories; a USER.md of before users apart becomes `owner`'s profile. */
export function createBuiltinMemoryProvider(options: BuiltinMemoryOptions): MemoryProvider {
  const files = new MemoryFiles(options.home);
  files.adoptLegacyProfile(options.owner ?? CLI_IDENTITY);
  const limits = options.limits ?? DEFAULT_MEMORY_LIMITS;
  return {
    name: BUILTIN_MEMORY_PROVIDER,
    systemPromptBlock: (session) => renderMemoryBlock(files, limits, session.user?.key),
    tools: [createMemoryTool(files, limits, options.redact ?? ((text) => text))],
  };
}
