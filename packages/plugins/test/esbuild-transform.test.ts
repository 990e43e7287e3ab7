import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TransformOptions } from 'jiti';
import { describe, expect, it } from 'vitest';
import { createEsbuildTransform } from '../src/esbuild-transform.js';
import { rewriteModuleCalls } from '../src/module-calls.js';
import { createModuleImporter } from '../src/module-importer.js';
import { TRANSFORM_CACHE_FOLDER, type TransformCache } from '../src/transform-cache.js';

function root(): string {
  return mkdtempSync(join(tmpdir(), 'hermes-esbuild-'));
}

function put(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

describe('createEsbuildTransform', () => {
  const calls: string[] = [];
  const debug: string[] = [];
  const { transform } = createEsbuildTransform({
    fallback: (o: TransformOptions) => {
      calls.push(o.filename ?? '');
      return { code: 'exports.fromFallback = true;' };
    },
    debug: (m) => debug.push(m),
  });

  it('turns TypeScript into the CommonJS body jiti runs, imports awaited through jitiImport, no fallback', () => {
    const source = [
      "import def, { named } from './dep.js';",
      "import type { T } from './types.js';",
      "export * from './star.js';",
      'export const x: T = def(named);',
      "export const lazy = () => import('./lazy.js');",
      'export const text = \'import("./not-a-call.js")\';',
    ].join('\n');
    const code = transform({ source, filename: '/p/entry.ts', ts: true, async: true }).code;
    expect(code).toContain('(await jitiImport("./dep.js"))');
    expect(code).toContain('(await jitiImport("./star.js"))');
    expect(code).toContain('jitiImport("./lazy.js")');
    expect(code).not.toContain('types.js');
    expect(code).not.toMatch(/\brequire\(/);
    expect(code).toContain(`'import("./not-a-call.js")'`);
    expect(calls).toEqual([]);
  });

  it('keeps require() where the source calls require itself, and in a synchronous load', () => {
    const both = transform({
      source: "import a from './a.js';\nexport const b = require('./b.cjs');\nexport { a };",
      filename: '/p/mixed.ts',
      ts: true,
      async: true,
    }).code;
    expect(both).toContain('require("./a.js")');
    expect(both).toContain('require("./b.cjs")');
    const sync = transform({ source: "export { a } from './a.js';", filename: '/p/sync.ts', ts: true }).code;
    expect(sync).toContain('require("./a.js")');
  });

  it('sends top-level await to the fallback, saying why, and reports a syntax error by file and line', () => {
    const tla = transform({ source: 'export const v = await Promise.resolve(1);', filename: '/p/tla.ts', ts: true });
    expect(tla.code).toBe('exports.fromFallback = true;');
    expect(calls).toEqual(['/p/tla.ts']);
    expect(debug.join('\n')).toMatch(/\/p\/tla\.ts: babel transform \(Top-level await/);
    const bad = transform({ source: 'const a = 1;\nexport const b: string = (;\n', filename: '/p/bad.ts', ts: true });
    expect(bad.code).toMatch(/^exports\.__JITI_ERROR__ = /);
    expect(JSON.parse(bad.code.replace('exports.__JITI_ERROR__ = ', ''))).toMatchObject({
      filename: '/p/bad.ts',
      line: 2,
      column: 26,
      code: 'ParseError',
    });
    expect(calls).toEqual(['/p/tla.ts']);
  });
});

describe('createEsbuildTransform, bare import.meta', () => {
  it('sends a file using import.meta as a whole to the fallback (esbuild would make it {})', () => {
    const sent: string[] = [];
    const { transform } = createEsbuildTransform({
      fallback: (o) => {
        sent.push(o.filename ?? '');
        return { code: 'exports.fromFallback = true;' };
      },
    });
    expect(transform({ source: 'export const m = import.meta;', filename: '/p/meta.ts', ts: true }).code).toBe(
      'exports.fromFallback = true;',
    );
    expect(transform({ source: 'export const u = import.meta.url;', filename: '/p/url.ts', ts: true }).code).toContain(
      '"file:///p/url.ts"',
    );
    expect(sent).toEqual(['/p/meta.ts']);
  });
});

describe('createEsbuildTransform with a cache', () => {
  it('prepare() transforms through the async API into the cache; transform() then answers from it', async () => {
    const store = new Map<string, string>();
    const reads: string[] = [];
    const cache: TransformCache = {
      get: (k) => {
        reads.push(k.filename ?? '');
        return store.get(`${k.filename}|${k.async}|${k.source}`) ?? null;
      },
      set: (k, code) => void store.set(`${k.filename}|${k.async}|${k.source}`, code),
    };
    const t = createEsbuildTransform({ fallback: () => ({ code: 'unused' }), cache });
    const options = {
      source: "import { a } from './a.js';\nexport const b: number = a;",
      filename: '/p/e.ts',
      ts: true,
      async: true,
    };
    await t.prepare(options);
    const made = [...store.values()];
    expect(made).toEqual([expect.stringContaining('(await jitiImport("./a.js"))')]);
    // the transform right after prepare() takes its result without reading the cache again
    const readsBefore = reads.length;
    expect(t.transform(options).code).toBe(made[0]);
    expect(reads.length).toBe(readsBefore);
    // later ones read the cache
    store.set(`/p/e.ts|true|${options.source}`, 'exports.fromCache = 1;');
    expect(t.transform(options).code).toBe('exports.fromCache = 1;');
    // another mode or source is another entry
    expect(t.transform({ ...options, async: false }).code).toContain('require("./a.js")');
    expect(store.size).toBe(2);
  });
});

describe('rewriteModuleCalls', () => {
  it('rewrites calls in code only: not in strings, templates, comments, regular expressions or methods', () => {
    const code = [
      'const a = import("./a.js");',
      'const s = "import(x)", t = \'require("y")\';',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text with a template literal
      'const u = `import(${import("./b.js")}) require("z")`;',
      '// import("./c.js")',
      '/* require("./d.js") */',
      'const r = /import(")/g;',
      'obj.import("e"); obj.require("f");',
      'const m = require("./m.js");',
    ].join('\n');
    expect(rewriteModuleCalls(code, { awaitImports: true })).toBe(
      [
        'const a = jitiImport("./a.js");',
        'const s = "import(x)", t = \'require("y")\';',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: source text with a template literal
        'const u = `import(${jitiImport("./b.js")}) require("z")`;',
        '// import("./c.js")',
        '/* require("./d.js") */',
        'const r = /import(")/g;',
        'obj.import("e"); obj.require("f");',
        'const m = (await jitiImport("./m.js"));',
      ].join('\n'),
    );
    expect(rewriteModuleCalls('const m = require("./m.js");', { awaitImports: false })).toBe(
      'const m = require("./m.js");',
    );
  });
});

describe('createModuleImporter with esbuild', () => {
  it('gives import.meta the file, loads dynamic imports, and interoperates with CommonJS and ES module JavaScript', async () => {
    const dir = root();
    put(dir, {
      'sub/meta.ts': [
        'export const url: string = import.meta.url;',
        'export const dir: string = import.meta.dirname;',
        'export const file: string = import.meta.filename;',
        'export const envHome = import.meta.env.HOME;',
      ].join('\n'),
      'cjs.cjs': 'module.exports = function greet(n) { return "hi " + n; };\nmodule.exports.extra = 1;\n',
      'esm.js': 'export default "esm-default";\nexport const named = "esm-named";\n',
      'entry.ts': [
        "import greet, { extra } from './cjs.cjs';",
        "import esmDefault, { named } from './esm.js';",
        "export default function register(): string { return greet('x') + extra; }",
        'export const both = esmDefault + named;',
        "export const meta = () => import('./sub/meta.js');",
      ].join('\n'),
    });
    const importer = await createModuleImporter();
    const mod = (await importer(join(dir, 'entry.ts'))) as {
      default(): string;
      both: string;
      meta(): Promise<{ url: string; dir: string; file: string; envHome: string | undefined }>;
    };
    expect(mod.default()).toBe('hi x1');
    expect(mod.both).toBe('esm-defaultesm-named');
    const meta = await mod.meta();
    const file = join(dir, 'sub', 'meta.ts');
    expect(meta).toEqual({ url: pathToFileURL(file).href, dir: join(dir, 'sub'), file, envHome: process.env.HOME });
  });

  it('loads a file with top-level await through the babel fallback, logged at debug', async () => {
    const dir = root();
    put(dir, {
      'dep.ts': 'export const base: number = 40;\n',
      'tla.ts':
        "const { base } = await import('./dep.js');\nexport const answer: number = base + (await Promise.resolve(2));\n",
    });
    const debug: string[] = [];
    const importer = await createModuleImporter({}, { debug: (m) => debug.push(m) });
    expect(((await importer(join(dir, 'tla.ts'))) as { answer: number }).answer).toBe(42);
    expect(debug).toEqual([
      expect.stringMatching(new RegExp(`${join(dir, 'tla.ts')}: babel transform \\(Top-level await`)),
    ]);
  });

  it('rejects a syntax error naming the file and line; a throw names the file in its stack', async () => {
    const dir = root();
    put(dir, {
      'bad.ts': 'export const a = 1;\nexport const b: number = (;\n',
      'throws.ts': "export function boom(): never {\n  throw new Error('boom');\n}\n",
    });
    const importer = await createModuleImporter();
    await expect(importer(join(dir, 'bad.ts'))).rejects.toThrow(/bad\.ts:2:\d+/);
    const { boom } = (await importer(join(dir, 'throws.ts'))) as { boom(): never };
    let stack = '';
    try {
      boom();
    } catch (err) {
      stack = (err as Error).stack ?? '';
    }
    expect(stack).toContain(join(dir, 'throws.ts'));
  });

  it('caches a transform by path, mode and source in a folder of its own beside jiti cache', async () => {
    const dir = root();
    put(dir, { 'cached.ts': `export const v: string = ${JSON.stringify(dir)};\n` });
    await (await createModuleImporter())(join(dir, 'cached.ts'));
    const cacheDir = join(tmpdir(), 'jiti', TRANSFORM_CACHE_FOLDER);
    const texts = readdirSync(cacheDir)
      .filter((f) => f.startsWith('cached.ts.'))
      .map((f) => readFileSync(join(cacheDir, f), 'utf8'));
    expect(texts.filter((t) => t.includes(JSON.stringify(dir)) && t.includes('v: () => v'))).toHaveLength(1);
  });
});
