import { mkdirSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createModuleImporter, pointImportsAtTypeScript } from '../src/module-importer.js';

function root(): string {
  return mkdtempSync(join(tmpdir(), 'hermes-importer-'));
}

function put(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

describe('pointImportsAtTypeScript', () => {
  it('points ./x.js at x.ts (and .mjs at .mts, .cjs at .cts) when only the TypeScript file exists', () => {
    const dir = root();
    put(dir, { 'a.ts': '', 'sub/b.mts': '', 'c.cts': '', 'd.tsx': '' });
    const code = [
      'var a = await jitiImport("./a.js");',
      "var b = require('./sub/b.mjs');",
      'var c = require("./c.cjs");',
      'var d = await jitiImport("./d.js");',
    ].join('\n');
    expect(pointImportsAtTypeScript(code, join(dir, 'index.ts'))).toBe(
      [
        'var a = await jitiImport("./a.ts");',
        "var b = require('./sub/b.mts');",
        'var c = require("./c.cts");',
        'var d = await jitiImport("./d.tsx");',
      ].join('\n'),
    );
  });

  it('leaves a specifier alone when the .js file or folder exists, nothing matches, or it is not relative', () => {
    const dir = root();
    put(dir, { 'sub/real.js': '', 'sub/real.ts': '', 'sub/folder.js/index.js': '', 'sub/folder.ts': '', 'up.ts': '' });
    const code = [
      'require("./real.js")',
      'require("./folder.js")',
      'require("./missing.js")',
      'jitiImport("discord.js")',
      'jitiImport("../up.js")',
      'const s = "./real.ts.js"',
    ].join(';');
    expect(pointImportsAtTypeScript(code, join(dir, 'sub', 'index.ts'))).toBe(code.replace('../up.js', '../up.ts'));
  });
});

describe('createModuleImporter', () => {
  // the CommonJS fs object jiti calls into (writable, unlike the ESM namespace)
  const fs = createRequire(import.meta.url)('node:fs') as { statSync: typeof import('node:fs').statSync };
  const statSync = fs.statSync;
  afterEach(() => {
    fs.statSync = statSync;
  });

  it('loads a TypeScript module graph written with .js specifiers with a stat call or so per file', async () => {
    const dir = root();
    const files: Record<string, string> = { 'm9.ts': 'export const depth: number = 1;\n' };
    for (let i = 0; i < 9; i++) {
      files[`m${i}.ts`] = `import { depth as next } from './m${i + 1}.js';\nexport const depth: number = next + 1;\n`;
    }
    files['entry.ts'] = "export * from './m0.js';\nexport const lazy = () => import('./m9.js');\n";
    put(dir, files);
    const importer = await createModuleImporter();
    let stats = 0;
    fs.statSync = ((...args: Parameters<typeof statSync>) => {
      stats++;
      return statSync(...args);
    }) as typeof statSync;
    const mod = (await importer(join(dir, 'entry.ts'))) as { depth: number; lazy(): Promise<{ depth: number }> };
    expect(mod.depth).toBe(10);
    expect((await mod.lazy()).depth).toBe(1);
    // jiti on its own: ~130 failed stat calls (each an error with a stack trace) per .js→.ts import
    expect(stats).toBeLessThanOrEqual(2 * 11);
  });

  it('follows a file renamed from .ts to .js after its importer was cached (no stale specifier)', async () => {
    const dir = root();
    put(dir, {
      'entry.ts': "import { name } from './dep.js';\nexport const greeting: string = 'hi ' + name;\n",
      'dep.ts': "export const name: string = 'ts';\n",
    });
    expect(((await (await createModuleImporter())(join(dir, 'entry.ts'))) as { greeting: string }).greeting).toBe(
      'hi ts',
    );
    renameSync(join(dir, 'dep.ts'), join(dir, 'dep.js'));
    writeFileSync(join(dir, 'dep.js'), "export const name = 'js';\n");
    // a new process would start with an empty module cache and the same file cache
    const fresh = await createModuleImporter();
    const entry = join(dir, 'entry.ts');
    for (const key of Object.keys(createRequire(import.meta.url).cache)) {
      if (key.startsWith(dir)) delete createRequire(import.meta.url).cache[key];
    }
    expect(((await fresh(entry)) as { greeting: string }).greeting).toBe('hi js');
  });

  it('maps aliases and reports a missing import with the specifier the code wrote', async () => {
    const dir = root();
    put(dir, {
      'sdk.ts': "export const SDK = 'sdk';\n",
      'uses-alias.ts': "import { SDK } from '@test/sdk';\nexport const value = SDK;\n",
      'broken.ts': "import { nope } from './absent.js';\nexport const value = nope;\n",
    });
    const importer = await createModuleImporter({ '@test/sdk': join(dir, 'sdk.ts') });
    expect(((await importer(join(dir, 'uses-alias.ts'))) as { value: string }).value).toBe('sdk');
    await expect(importer(join(dir, 'broken.ts'))).rejects.toThrow(/absent\.js/);
  });
});
