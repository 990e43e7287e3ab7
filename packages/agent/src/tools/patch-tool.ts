/**
 * The `patch` tool: edits part of a file instead of rewriting it whole. Two forms: a search and
 * replace (`path`, `old_text`, `new_text`, `replace_all`) or a unified diff (`diff`, one file or
 * several, as `diff -u` or `git diff` prints it, files created or deleted included). Every file is
 * checked by the file tools' guard, every change computed before the first write, so a hunk that
 * does not apply leaves every file as it was.
 */
import { readFile, stat, unlink } from 'node:fs/promises';
import type { ToolContext, ToolDefinition } from '@hermes/protocol';
import { parsePatch } from 'diff';
import { applyHunks } from './apply-hunks.js';
import { errnoCode, errorMessage } from './errno.js';
import type { FileGuard } from './file-guard.js';
import { type FileToolOptions, sessionFileGuard } from './file-guard-session.js';
import { replaceText } from './replace-text.js';
import { optionalBoolean, optionalString, parseArgs, requiredString } from './tool-args.js';
import { errorResult, jsonResult } from './tool-result.js';
import { writeFileAtomic } from './write-file-atomic.js';

/** A diff or a file larger than this is refused (a patch is for parts of files). */
export const PATCH_MAX_BYTES = 2_000_000;

const SCHEMA = {
  name: 'patch',
  description: [
    'Change part of a text file without rewriting it whole. Either replace one exact piece of text:',
    'path, old_text (copied exactly from the file, with enough surrounding lines to be unique) and new_text',
    '(replace_all: true replaces every occurrence); or apply a unified diff (diff: the text `diff -u` or',
    '`git diff` prints, one or more files; --- /dev/null creates a file, +++ /dev/null deletes one).',
    'Nothing is written unless every change applies; an error says which text or hunk did not match and where.',
    'Same folders as write_file. Returns each file changed.',
  ].join(' '),
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'File to edit (search and replace form).' },
      old_text: { type: 'string', description: 'The exact text to replace.' },
      new_text: { type: 'string', description: 'The text to put in its place (may be empty).' },
      replace_all: { type: 'boolean', description: 'Replace every occurrence of old_text (default false).' },
      diff: { type: 'string', description: 'A unified diff (instead of path/old_text/new_text).' },
    },
    additionalProperties: false,
  },
};

interface Change {
  shown: string;
  target: string;
  action: 'modified' | 'created' | 'deleted';
  text: string;
  detail: Record<string, number>;
}

type Planned = { ok: true; changes: Change[] } | { ok: false; error: string };

async function readExisting(target: string): Promise<string | null> {
  try {
    const info = await stat(target);
    if (!info.isFile()) throw new Error(`${target} is not a regular file`);
    if (info.size > PATCH_MAX_BYTES)
      throw new Error(`${target} is larger than ${PATCH_MAX_BYTES} bytes (use write_file)`);
    return await readFile(target, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw error;
  }
}

/** `a/src/x.ts` → `src/x.ts` when the diff uses git's a/ b/ prefixes. */
function diffPath(name: string | undefined, prefixed: boolean): string | null {
  if (name === undefined || name === '' || name === '/dev/null') return null;
  const clean = name.replace(/\t.*$/, '');
  return prefixed ? clean.replace(/^[ab]\//, '') : clean;
}

async function planReplace(guard: FileGuard, path: string, args: Record<string, unknown>): Promise<Planned> {
  const parsed = parseArgs(() => ({
    oldText: requiredString(args, 'old_text', { allowEmpty: true }),
    newText: requiredString(args, 'new_text', { allowEmpty: true }),
    all: optionalBoolean(args, 'replace_all') ?? false,
  }));
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const guarded = await guard.check(path);
  if (!guarded.ok) return guarded;
  const text = await readExisting(guarded.target);
  if (text === null) return { ok: false, error: `No such file: ${guarded.shown} (write_file creates files)` };
  const replaced = replaceText(text, parsed.value.oldText, parsed.value.newText, parsed.value.all, guarded.shown);
  if (!replaced.ok) return replaced;
  return {
    ok: true,
    changes: [
      {
        shown: guarded.shown,
        target: guarded.target,
        action: 'modified',
        text: replaced.text,
        detail: { replacements: replaced.count },
      },
    ],
  };
}

async function planDiff(guard: FileGuard, diff: string): Promise<Planned> {
  let files: ReturnType<typeof parsePatch>;
  try {
    files = parsePatch(diff);
  } catch (error) {
    return { ok: false, error: `diff is not a unified diff: ${errorMessage(error)}` };
  }
  files = files.filter((f) => f.hunks.length > 0);
  if (files.length === 0)
    return { ok: false, error: 'diff has no hunks: give a unified diff (--- old, +++ new, @@ lines)' };
  const changes: Change[] = [];
  for (const file of files) {
    const prefixed = /^a\//.test(file.oldFileName ?? '') || /^b\//.test(file.newFileName ?? '');
    const oldPath = diffPath(file.oldFileName, prefixed);
    const newPath = diffPath(file.newFileName, prefixed);
    const path = newPath ?? oldPath;
    if (path === null) return { ok: false, error: 'a file of the diff names no path (--- and +++ lines)' };
    const guarded = await guard.check(path);
    if (!guarded.ok) return guarded;
    if (changes.some((c) => c.target === guarded.target))
      return { ok: false, error: `${guarded.shown} appears twice in the diff` };
    const existing = await readExisting(guarded.target);
    if (oldPath === null && existing !== null)
      return { ok: false, error: `${guarded.shown} already exists (the diff creates it)` };
    if (oldPath !== null && existing === null) return { ok: false, error: `No such file: ${guarded.shown}` };
    const applied = applyHunks(existing ?? '', file.hunks, guarded.shown);
    if (!applied.ok) return applied;
    const action = newPath === null ? 'deleted' : oldPath === null ? 'created' : 'modified';
    changes.push({
      shown: guarded.shown,
      target: guarded.target,
      action,
      text: applied.text,
      detail: { hunks: file.hunks.length },
    });
  }
  return { ok: true, changes };
}

/** The patch tool (toolset `file`). */
export function createPatchTool(options: FileToolOptions = {}): ToolDefinition {
  const guardFor = sessionFileGuard(options);

  const handler = async (args: Record<string, unknown>, context: ToolContext): Promise<string> => {
    const forms = parseArgs(() => ({ path: optionalString(args, 'path'), diff: optionalString(args, 'diff') }));
    if (!forms.ok) return errorResult(forms.error, { code: forms.code });
    const { path, diff } = forms.value;
    if ((path === undefined) === (diff === undefined)) {
      return errorResult('Give either path with old_text and new_text, or diff (a unified diff), not both');
    }
    if (diff !== undefined && Buffer.byteLength(diff) > PATCH_MAX_BYTES) {
      return errorResult(`diff is larger than ${PATCH_MAX_BYTES} bytes: use write_file for whole files`);
    }
    const guard = await guardFor(context.sessionId, context.user);
    let planned: Planned;
    try {
      planned = path !== undefined ? await planReplace(guard, path, args) : await planDiff(guard, diff as string);
    } catch (error) {
      return errorResult(`Cannot patch: ${errorMessage(error)}`);
    }
    if (!planned.ok) return errorResult(planned.error);
    const done: Array<Record<string, unknown>> = [];
    for (const change of planned.changes) {
      try {
        if (change.action === 'deleted') await unlink(change.target);
        else await writeFileAtomic(change.target, change.text);
      } catch (error) {
        return errorResult(`Cannot write ${change.shown}: ${errorMessage(error)}`, { written: done });
      }
      done.push({ path: change.shown, action: change.action, ...change.detail });
    }
    return jsonResult({ files: done });
  };

  return { name: 'patch', toolset: 'file', schema: SCHEMA, handler, owner: 'builtin', emoji: '🩹' };
}
