// The everyday file tools through `hermes -z`: a fake model calls patch, search_files and todo in a
// project folder (the working directory); the files on disk and the tool results are checked.
// The fake model reads its plan from the prompt (`CALL [...]`) and answers with the tool results.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAI, type FakeToolCall, startFakeOpenAI } from '../fakes/openai-server.js';
import { answerWithCallPlan } from '../helpers/call-plan.js';
import { runHermes, tempHome } from '../helpers/run-hermes.js';

let model: FakeOpenAI;
const scratch = mkdtempSync(join(tmpdir(), 'hermes-file-tools-'));

beforeAll(async () => {
  model = await startFakeOpenAI();
  answerWithCallPlan(model);
});
afterAll(async () => {
  await model?.close();
  rmSync(scratch, { recursive: true, force: true });
});

function project(name: string): string {
  const dir = join(scratch, name);
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'src/app.js'), 'const port = 8080;\n// TODO: read the port from the env\nlisten(port);\n');
  writeFileSync(join(dir, 'README.md'), '# app\n\nTODO: write the docs\n');
  writeFileSync(join(dir, '.gitignore'), 'dist/\n');
  mkdirSync(join(dir, 'dist'));
  writeFileSync(join(dir, 'dist/app.js'), '// TODO: built copy\n');
  return dir;
}

async function run(cwd: string, calls: FakeToolCall[]): Promise<Array<Record<string, unknown>>> {
  const r = await runHermes(['-z', `CALL ${JSON.stringify(calls)}`], {
    cwd,
    env: {
      HERMES_HOME: tempHome(),
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: 'k',
      HERMES_INFERENCE_MODEL: 'test-model',
    },
  });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('file tools through hermes -z', () => {
  it('search_files finds the TODOs (not in ignored dist/), patch edits by text and by diff, todo keeps a plan', async () => {
    const dir = project('everyday');
    // one turn's tool calls run at once: the search first, in a turn of its own
    const [search] = await run(dir, [{ name: 'search_files', arguments: { pattern: 'TODO' } }]);
    const [replace, diff, plan] = await run(dir, [
      {
        name: 'patch',
        arguments: {
          path: 'src/app.js',
          old_text: 'const port = 8080;',
          new_text: 'const port = Number(process.env.PORT ?? 8080);',
        },
      },
      {
        name: 'patch',
        arguments: {
          diff: [
            '--- a/README.md',
            '+++ b/README.md',
            '@@ -1,3 +1,3 @@',
            ' # app',
            ' ',
            '-TODO: write the docs',
            '+Run it with `node src/app.js`.',
            '',
          ].join('\n'),
        },
      },
      {
        name: 'todo',
        arguments: {
          todos: [
            { content: 'port from env', status: 'completed' },
            { content: 'docs', status: 'in_progress' },
          ],
        },
      },
    ]);
    expect(search?.matches).toEqual([
      { path: join(dir, 'README.md'), line: 3, text: 'TODO: write the docs' },
      { path: join(dir, 'src/app.js'), line: 2, text: '// TODO: read the port from the env' },
    ]);
    expect(replace).toEqual({ files: [{ path: join(dir, 'src/app.js'), action: 'modified', replacements: 1 }] });
    expect(diff).toEqual({ files: [{ path: join(dir, 'README.md'), action: 'modified', hunks: 1 }] });
    expect(readFileSync(join(dir, 'src/app.js'), 'utf8')).toBe(
      'const port = Number(process.env.PORT ?? 8080);\n// TODO: read the port from the env\nlisten(port);\n',
    );
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe('# app\n\nRun it with `node src/app.js`.\n');
    expect(plan?.counts).toEqual({ pending: 0, in_progress: 1, completed: 1, cancelled: 0 });
  });

  it('a hunk that does not apply is an error for the model, and the file is left as it was', async () => {
    const dir = project('stale');
    const [result] = await run(dir, [
      {
        name: 'patch',
        arguments: { diff: '--- a/src/app.js\n+++ b/src/app.js\n@@ -1 +1 @@\n-const port = 9090;\n+const port = 1;\n' },
      },
    ]);
    expect(result?.error).toMatch(
      /hunk 1 of 1 \(@@ -1,1 \+1,1 @@\) does not apply to .*src\/app\.js: line 1 should be "const port = 9090;" but is "const port = 8080;"/,
    );
    expect(readFileSync(join(dir, 'src/app.js'), 'utf8')).toContain('const port = 8080;');
  });

  it('execute_code runs a snippet in the working directory and returns what it printed', async () => {
    const dir = project('code');
    const [result] = await run(dir, [
      {
        name: 'execute_code',
        arguments: {
          language: 'javascript',
          code: "const fs = require('node:fs');\nconsole.log(fs.readFileSync('src/app.js', 'utf8').split('\\n').length);",
        },
      },
    ]);
    expect(result).toEqual({ output: '4\n', exit_code: 0 });
  });
});
