/**
 * The `search_files` tool: finds files by name (a glob) or lines by content (a regular
 * expression) under a folder the file tools may use, as `rg` would: ignore files respected, `.git`
 * and binary files skipped, links not followed, protected paths never read, secrets redacted
 * from the lines it returns, bounded in files looked at, bytes read and results.
 */
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ToolContext, ToolDefinition } from '@hermes/protocol';
import { minimatch } from 'minimatch';
import { errorMessage } from './errno.js';
import { type FileToolOptions, sessionFileGuard } from './file-guard-session.js';
import { type WalkState, walkFiles } from './file-walk.js';
import { BINARY_SNIFF_BYTES } from './read-file-tool.js';
import type { Redactor } from './terminal-output.js';
import { optionalBoolean, optionalNumber, optionalString, parseArgs, requiredString } from './tool-args.js';
import { errorResult, jsonResult } from './tool-result.js';

export const SEARCH_DEFAULT_LIMIT = 50;
export const SEARCH_MAX_LIMIT = 500;
/** files and folders looked at, at most, per search */
export const SEARCH_MAX_ENTRIES = 50_000;
/** files larger than this are not searched for content */
export const SEARCH_MAX_FILE_BYTES = 1_000_000;
/** a matching line is cut to this many characters */
export const SEARCH_MAX_LINE_CHARS = 300;

const SCHEMA = {
  name: 'search_files',
  description: [
    'Search files under a folder. target "content" (default): lines matching pattern, a regular expression',
    '(JavaScript syntax), with their file and line number. target "files": files whose path matches pattern,',
    'a glob such as *.ts or src/**/test_*.py. Ignore files (.gitignore, .ignore), .git and binary files are',
    'skipped. file_glob narrows a content search to some files (e.g. *.md). Same folders as read_file;',
    'path defaults to the working directory. When truncated is true, narrow the search or continue with offset.',
  ].join(' '),
  parameters: {
    type: 'object',
    properties: {
      pattern: { type: 'string', description: 'Regular expression (content) or glob (files).' },
      target: { type: 'string', enum: ['content', 'files'], description: 'What to search (default content).' },
      path: { type: 'string', description: 'Folder (or file) to search (default: the working directory).' },
      file_glob: { type: 'string', description: 'Only files whose path or name matches this glob.' },
      case_sensitive: { type: 'boolean', description: 'Default true.' },
      context: {
        type: 'integer',
        minimum: 0,
        maximum: 5,
        description: 'Lines of context around each match (content).',
      },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: SEARCH_MAX_LIMIT,
        description: `Results to return (default ${SEARCH_DEFAULT_LIMIT}).`,
      },
      offset: { type: 'integer', minimum: 0, description: 'Results to skip (for the next page).' },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
};

interface Query {
  pattern: string;
  target: 'content' | 'files';
  path: string;
  fileGlob: string | undefined;
  caseSensitive: boolean;
  context: number;
  limit: number;
  offset: number;
}

function readQuery(args: Record<string, unknown>): Query {
  const target = optionalString(args, 'target') ?? 'content';
  const context = optionalNumber(args, 'context', { integer: true, min: 0 }) ?? 0;
  return {
    pattern: requiredString(args, 'pattern'),
    target: target === 'files' ? 'files' : 'content',
    path: optionalString(args, 'path') ?? '.',
    fileGlob: optionalString(args, 'file_glob'),
    caseSensitive: optionalBoolean(args, 'case_sensitive') ?? true,
    context: Math.min(context, 5),
    limit: Math.min(optionalNumber(args, 'limit', { integer: true, min: 1 }) ?? SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT),
    offset: optionalNumber(args, 'offset', { integer: true, min: 0 }) ?? 0,
  };
}

/** The file's text, or null for a binary or too large file. */
async function readText(file: string): Promise<string | null> {
  const info = await stat(file);
  if (info.size > SEARCH_MAX_FILE_BYTES) return null;
  const handle = await open(file, 'r');
  try {
    const buffer = await handle.readFile();
    if (buffer.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return null;
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}

const cut = (line: string) => (line.length > SEARCH_MAX_LINE_CHARS ? `${line.slice(0, SEARCH_MAX_LINE_CHARS)}…` : line);

/** The search_files tool (toolset `file`). */
export function createSearchFilesTool(options: FileToolOptions = {}): ToolDefinition {
  const guardFor = sessionFileGuard(options);
  const secrets = options.secrets ?? (() => []);
  const redact: Redactor = options.redact ?? ((text) => text);

  const handler = async (args: Record<string, unknown>, context: ToolContext): Promise<string> => {
    const parsed = parseArgs(() => readQuery(args));
    if (!parsed.ok) return errorResult(parsed.error, { code: parsed.code });
    const q = parsed.value;
    let regex: RegExp | null = null;
    if (q.target === 'content') {
      try {
        regex = new RegExp(q.pattern, q.caseSensitive ? 'u' : 'iu');
      } catch (error) {
        return errorResult(`Invalid argument "pattern": not a regular expression (${errorMessage(error)})`);
      }
    }
    const globOptions = { dot: true, nocase: !q.caseSensitive };
    const glob = (pattern: string) => (s: string) => minimatch(s, pattern, globOptions);
    const nameMatches = q.target === 'files' ? glob(q.pattern) : null;
    const globMatches = q.fileGlob === undefined ? null : glob(q.fileGlob);
    const matchesPath = (m: (s: string) => boolean, rel: string) => m(rel) || m(path.posix.basename(rel));

    const guard = await guardFor(context.sessionId, context.user);
    const rootCheck = await guard.check(q.path);
    if (!rootCheck.ok) return errorResult(rootCheck.error);
    let root: string;
    try {
      root = rootCheck.target;
      if (!(await stat(root)).isDirectory()) root = path.dirname(root);
    } catch {
      return errorResult(`No such file or folder: ${rootCheck.shown}`);
    }
    const single = root !== rootCheck.target ? rootCheck.target : null;
    const shownOf = (file: string) => path.join(rootCheck.shown, path.relative(rootCheck.target, file));
    const state: WalkState = { entries: 0, truncated: false };
    const results: Array<Record<string, unknown>> = [];
    let found = 0;
    let filesSearched = 0;
    const wanted = q.offset + q.limit;
    const files = single !== null ? [single] : walkFiles(root, SEARCH_MAX_ENTRIES, state);
    const list = secrets();
    for await (const file of files) {
      const rel = path.relative(root, file).split(path.sep).join('/');
      if (globMatches !== null && !matchesPath(globMatches, rel)) continue;
      if (nameMatches !== null && !matchesPath(nameMatches, rel)) continue;
      // the guard decides for every file (protected paths inside an allowed folder)
      const checked = await guard.check(file);
      if (!checked.ok) continue;
      if (regex === null) {
        if (found++ >= q.offset) results.push({ path: shownOf(file) });
      } else {
        const text = await readText(file).catch(() => null);
        if (text === null) continue;
        filesSearched++;
        const lines = text.split(/\r?\n/);
        for (const [i, line] of lines.entries()) {
          if (!regex.test(line)) continue;
          if (found++ < q.offset) continue;
          const hit: Record<string, unknown> = { path: shownOf(file), line: i + 1, text: redact(cut(line), list) };
          if (q.context > 0) {
            hit.before = lines.slice(Math.max(0, i - q.context), i).map((l) => redact(cut(l), list));
            hit.after = lines.slice(i + 1, i + 1 + q.context).map((l) => redact(cut(l), list));
          }
          results.push(hit);
          if (found >= wanted) break;
        }
      }
      if (found >= wanted) {
        state.truncated = true;
        break;
      }
    }
    return jsonResult({
      [regex === null ? 'files' : 'matches']: results,
      truncated: state.truncated,
      ...(state.truncated && found >= wanted ? { next_offset: wanted } : {}),
      ...(regex === null ? {} : { files_searched: filesSearched }),
    });
  };

  return { name: 'search_files', toolset: 'file', schema: SCHEMA, handler, owner: 'builtin', emoji: '🔎' };
}
