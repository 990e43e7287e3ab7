/** The `read_file` tool: a window of lines from a text file, with the file's total line count. */
import { open, stat } from 'node:fs/promises';
import type { ToolContext, ToolDefinition } from '@hermes/protocol';
import { errnoCode, errorMessage } from './errno.js';
import { type FileToolOptions, sessionFileGuard } from './file-guard-session.js';
import { readLineWindow } from './read-line-window.js';
import type { Redactor } from './terminal-output.js';
import { optionalNumber, parseArgs, requiredString } from './tool-args.js';
import { errorResult, jsonResult } from './tool-result.js';

export const READ_FILE_DEFAULT_LIMIT_LINES = 2_000;
export const READ_FILE_MAX_CHARS = 100_000;
/** A NUL byte in this many leading bytes marks a file as binary. */
export const BINARY_SNIFF_BYTES = 8_192;

export type { FileToolOptions } from './file-guard-session.js';

const SCHEMA = {
  name: 'read_file',
  description: [
    'Read a text file and return its content (lines joined with \\n) and its total line count.',
    'Use it to look at source code, configuration or logs before changing or reasoning about them.',
    'Relative paths resolve against the working directory; ~ is the home directory.',
    'Only files inside the allowed folders (by default the working directory) can be read; secrets and keys never.',
    'Large files: read a window with offset (1-based first line) and limit (number of lines, default 2000);',
    'when truncated is true, continue with offset = next_offset.',
    'Directories and binary files are refused.',
  ].join(' '),
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Path of the file to read.' },
      offset: { type: 'integer', minimum: 1, description: '1-based number of the first line to return (default 1).' },
      limit: { type: 'integer', minimum: 1, description: 'Maximum number of lines to return (default 2000).' },
    },
    required: ['path'],
    additionalProperties: false,
  },
};

/** True when the first BINARY_SNIFF_BYTES of the file contain a NUL byte. */
async function looksBinary(filePath: string): Promise<boolean> {
  const handle = await open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(BINARY_SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, BINARY_SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead).includes(0);
  } finally {
    await handle.close();
  }
}

/** The read_file tool (toolset `file`). */
export function createReadFileTool(options: FileToolOptions = {}): ToolDefinition {
  const guardFor = sessionFileGuard(options);
  const secrets = options.secrets ?? (() => []);
  const redact: Redactor = options.redact ?? ((text) => text);

  const handler = async (args: Record<string, unknown>, context: ToolContext): Promise<string> => {
    const parsed = parseArgs(() => ({
      path: requiredString(args, 'path'),
      offset: optionalNumber(args, 'offset', { integer: true, min: 1 }) ?? 1,
      limit: optionalNumber(args, 'limit', { integer: true, min: 1 }) ?? READ_FILE_DEFAULT_LIMIT_LINES,
    }));
    if (!parsed.ok) return errorResult(parsed.error, { code: parsed.code });
    const guarded = await (await guardFor(context.sessionId, context.user)).check(parsed.value.path);
    if (!guarded.ok) return errorResult(guarded.error);
    const filePath = guarded.shown;
    try {
      const info = await stat(guarded.target);
      if (info.isDirectory()) return errorResult(`Path is a directory, not a file: ${filePath}`);
      if (!info.isFile()) return errorResult(`Not a regular file: ${filePath}`);
      if (await looksBinary(guarded.target)) return errorResult(`Binary file, not shown: ${filePath}`);
      const window = await readLineWindow(guarded.target, {
        offset: parsed.value.offset,
        limit: parsed.value.limit,
        maxChars: READ_FILE_MAX_CHARS,
      });
      return jsonResult({
        path: filePath,
        // a file like HERMES_HOME/.env holds the tokens: they never reach the model or the transcript
        content: redact(window.content, secrets()),
        total_lines: window.totalLines,
        truncated: window.truncated,
        ...(window.nextOffset === undefined ? {} : { next_offset: window.nextOffset }),
      });
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') return errorResult(`File not found: ${filePath}`);
      return errorResult(`Cannot read ${filePath}: ${errorMessage(error)}`);
    }
  };

  return { name: 'read_file', toolset: 'file', schema: SCHEMA, handler, owner: 'builtin', emoji: '📖' };
}
