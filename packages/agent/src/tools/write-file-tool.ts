/** The `write_file` tool: creates or replaces a whole file, atomically. */
import { stat } from 'node:fs/promises';
import type { ToolContext, ToolDefinition } from '@hermes/protocol';
import { errnoCode, errorMessage } from './errno.js';
import type { FileToolOptions } from './file-guard-session.js';
import { sessionFileGuard } from './file-guard-session.js';
import { parseArgs, requiredString } from './tool-args.js';
import { errorResult, jsonResult } from './tool-result.js';
import { writeFileAtomic } from './write-file-atomic.js';

const SCHEMA = {
  name: 'write_file',
  description: [
    'Create a file or replace its entire content, creating missing parent directories.',
    'Use it to write new files or save a complete new version of an existing one',
    '(to change part of a file, read it first and write the whole updated content).',
    'Relative paths resolve against the working directory; ~ is the home directory.',
    'Only files inside the allowed folders (by default the working directory) can be written;',
    'secrets, keys, shell start-up files and the gateway configuration, hooks and plugins never.',
    'The write is atomic: the file is either the old or the new version, never half-written.',
    'Returns the absolute path and the number of bytes written.',
  ].join(' '),
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Path of the file to write.' },
      content: { type: 'string', description: 'The complete new content of the file (UTF-8 text).' },
    },
    required: ['path', 'content'],
    additionalProperties: false,
  },
};

/** True when `filePath` exists and is a directory. */
async function isDirectory(filePath: string): Promise<boolean> {
  try {
    return (await stat(filePath)).isDirectory();
  } catch (error) {
    if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') return false;
    throw error;
  }
}

/** The write_file tool (toolset `file`). */
export function createWriteFileTool(options: FileToolOptions = {}): ToolDefinition {
  const guardFor = sessionFileGuard(options);

  const handler = async (args: Record<string, unknown>, context: ToolContext): Promise<string> => {
    const parsed = parseArgs(() => ({
      path: requiredString(args, 'path'),
      content: requiredString(args, 'content', { allowEmpty: true }),
    }));
    if (!parsed.ok) return errorResult(parsed.error, { code: parsed.code });
    const guarded = await (await guardFor(context.sessionId, context.user)).check(parsed.value.path);
    if (!guarded.ok) return errorResult(guarded.error);
    const filePath = guarded.shown;
    try {
      if (await isDirectory(guarded.target)) return errorResult(`Path is a directory, not a file: ${filePath}`);
      // target has its symlinks resolved: writing to a symlink replaces the file it points to
      await writeFileAtomic(guarded.target, parsed.value.content);
      return jsonResult({ path: filePath, bytes_written: Buffer.byteLength(parsed.value.content, 'utf8') });
    } catch (error) {
      return errorResult(`Cannot write ${filePath}: ${errorMessage(error)}`);
    }
  };

  return { name: 'write_file', toolset: 'file', schema: SCHEMA, handler, owner: 'builtin', emoji: '✍️' };
}
