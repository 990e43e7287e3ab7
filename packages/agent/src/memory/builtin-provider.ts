/**
 * The `builtin` memory provider: MEMORY.md and USER.md under HERMES_HOME/memories (memory-files.ts),
 * their entries in the system prompt of each new session, and the `memory` tool to edit them.
 * What the tool writes is redacted first (the process's secret redactor): a secret the model
 * copied into a note never lands in the file or in a later system prompt.
 */
import type { MemoryProvider, MemoryProviderTool } from '@hermes/protocol';
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
}

const ACTIONS: readonly MemoryAction[] = ['add', 'replace', 'remove'];
const HEADINGS: Readonly<Record<MemoryTarget, string>> = {
  memory: 'Your notes (MEMORY.md)',
  user: 'About the user (USER.md)',
};

function oneOf<T extends string>(args: Record<string, unknown>, name: string, values: readonly T[]): T {
  const value = requiredString(args, name);
  if (!(values as readonly string[]).includes(value)) {
    throw new ToolArgumentError(`Invalid argument "${name}": expected one of ${values.join(', ')}, got "${value}"`);
  }
  return value as T;
}

/** The memory block of a new session's system prompt ('' when both files are empty). */
export function renderMemoryBlock(files: MemoryFiles, limits: MemoryLimits): string {
  const parts: string[] = [];
  for (const target of MEMORY_TARGETS) {
    const entries = files.read(target);
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
        "Saved entries show in the system prompt from the next session on (this session's prompt stays as it began).",
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
    handler: (args) => {
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
      const limit = limits[edit.target];
      const outcome = applyMemoryEdit(files.read(edit.target), edit, limit);
      if (!outcome.ok) return { success: false, error: outcome.error };
      if (outcome.changed) files.write(edit.target, outcome.entries);
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

/** The built-in provider over HERMES_HOME/memories. */
export function createBuiltinMemoryProvider(options: BuiltinMemoryOptions): MemoryProvider {
  const files = new MemoryFiles(options.home);
  const limits = options.limits ?? DEFAULT_MEMORY_LIMITS;
  return {
    name: BUILTIN_MEMORY_PROVIDER,
    systemPromptBlock: () => renderMemoryBlock(files, limits),
    tools: [createMemoryTool(files, limits, options.redact ?? ((text) => text))],
  };
}
