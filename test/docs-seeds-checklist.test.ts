// docs/seeds-checklist.md lists every item of the seed documents with its status, the docs that
// describe it and the tests that exercise it. This keeps the table true in form: statuses from the
// four allowed, links that resolve to a file and a heading, test files that exist, and a counts
// line that matches the rows.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PAGE = 'docs/seeds-checklist.md';
const text = readFileSync(join(ROOT, PAGE), 'utf8');

const SEEDS = [
  'build-a-plugin.md',
  'build-a-plugin.zh.md',
  'event-hooks.md',
  'event-hooks.md (preface)',
  'plugins.zh.md',
  'web-search-provider-plugin.md',
];
const KINDS = ['built', 'built differently', 'not built', 'in progress'] as const;
type Kind = (typeof KINDS)[number];

interface Row {
  n: number;
  item: string;
  seeds: string[];
  kind: Kind | null;
  reason: string;
  status: string;
  links: { file: string; anchor: string | null }[];
  tests: string[];
  documented: string;
  tested: string;
}

/** The cells of a table row, split on the pipes that are not escaped. */
function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

/** `built`, or one of the other kinds with its reason; anything else is kind null (the first test fails on it). */
function parseStatus(status: string): { kind: Kind | null; reason: string; status: string } {
  if (status === 'built') return { kind: 'built', reason: '', status };
  const m = /^(built differently|not built|in progress): (.+)$/.exec(status);
  return m?.[1] && m[2] ? { kind: m[1] as Kind, reason: m[2], status } : { kind: null, reason: '', status };
}

function parseRows(): Row[] {
  return text
    .split('\n')
    .filter((l) => /^\| \d+ \|/.test(l))
    .map((line) => {
      const c = cells(line);
      expect(c, line).toHaveLength(6);
      const [n, item, seed, status, documented, tested] = c as [string, string, string, string, string, string];
      return {
        n: Number(n),
        item,
        seeds: seed.split(', '),
        ...parseStatus(status),
        links: [...documented.matchAll(/\]\(([^)#\s]+)(?:#([^)\s]+))?\)/g)].map((m) => ({
          file: m[1] ?? '',
          anchor: m[2] ?? null,
        })),
        tests: [...tested.matchAll(/`([^`]+\.test\.ts)`/g)].map((m) => m[1] ?? ''),
        documented,
        tested,
      };
    });
}

/** GitHub's heading anchor: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings (fenced code skipped), numbered as GitHub numbers repeats. */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const m = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!m?.[1]) continue;
    const base = slug(m[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    out.add(count === 0 ? base : `${base}-${count}`);
  }
  return out;
}

const rows = parseRows();

describe('docs/seeds-checklist.md', () => {
  it('numbers its rows 1, 2, 3, ... with a seed file, an item and an allowed status each', () => {
    expect(rows.length).toBeGreaterThan(100);
    rows.forEach((r, i) => {
      expect(r.n, r.item).toBe(i + 1);
      expect(r.item.length, `row ${r.n}`).toBeGreaterThan(3);
      for (const seed of r.seeds) expect(SEEDS, `row ${r.n}`).toContain(seed);
      expect(r.kind, `row ${r.n}: status "${r.status}" is one of ${KINDS.join(', ')} (with a reason)`).not.toBeNull();
      if (r.kind !== 'built') expect(r.reason.length, `row ${r.n} gives a reason`).toBeGreaterThan(10);
    });
  });

  it('the counts line at the top is the count of the rows of each status', () => {
    const m = /^\*\*(\d+) items\*\*: (\d+) built, (\d+) built differently, (\d+) not built, (\d+) in progress\.$/m.exec(
      text,
    );
    expect(m, 'the counts line').not.toBeNull();
    const count = (kind: Kind) => rows.filter((r) => r.kind === kind).length;
    expect(m?.slice(1).map(Number)).toEqual([
      rows.length,
      count('built'),
      count('built differently'),
      count('not built'),
      count('in progress'),
    ]);
  });

  it('every docs link resolves to a file, and its anchor to a heading of that file', () => {
    const cache = new Map<string, Set<string>>();
    let checked = 0;
    for (const r of rows) {
      if (r.links.length === 0) expect(r.documented, `row ${r.n}: links or —`).toBe('—');
      for (const link of r.links) {
        const path = normalize(join(dirname(PAGE), link.file));
        expect(existsSync(join(ROOT, path)), `row ${r.n}: ${path}`).toBe(true);
        if (link.anchor === null) continue;
        if (!cache.has(path)) cache.set(path, anchors(readFileSync(join(ROOT, path), 'utf8')));
        expect([...(cache.get(path) ?? [])], `row ${r.n}: ${path}#${link.anchor}`).toContain(link.anchor);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('every test file it names exists', () => {
    for (const r of rows) {
      if (r.tests.length === 0) expect(r.tested, `row ${r.n}: test files or —`).toBe('—');
      for (const file of r.tests) expect(existsSync(join(ROOT, file)), `row ${r.n}: ${file}`).toBe(true);
    }
  });

  it('a built row names the page that documents it and a test that exercises it', () => {
    for (const r of rows.filter((x) => x.kind === 'built')) {
      expect(r.links.length, `row ${r.n} (${r.item}): documented`).toBeGreaterThan(0);
      expect(r.tests.length, `row ${r.n} (${r.item}): tested`).toBeGreaterThan(0);
    }
  });

  it('the anchor rule agrees with headings the docs already link to', () => {
    expect(anchors(readFileSync(join(ROOT, 'docs/security.md'), 'utf8'))).toContain(
      'nothing-the-model-writes-is-trusted',
    );
    expect(
      anchors('## Manifest: `plugin.yaml`\n### DuckDuckGo (`ddgs`)\n## A\n## A\n```\n# not a heading\n```\n'),
    ).toEqual(new Set(['manifest-pluginyaml', 'duckduckgo-ddgs', 'a', 'a-1']));
  });

  it('is linked from the README and from docs/plugins.md', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain('(docs/seeds-checklist.md)');
    expect(readFileSync(join(ROOT, 'docs/plugins.md'), 'utf8')).toContain('(seeds-checklist.md)');
  });
});
