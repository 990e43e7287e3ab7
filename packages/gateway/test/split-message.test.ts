import { describe, expect, it } from 'vitest';
import { splitMessage } from '../src/delivery/split-message.js';

const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})/;

/** True when every fence opened in `chunk` is closed in it. */
function fencesBalanced(chunk: string): boolean {
  let open: string | undefined;
  for (const line of chunk.split('\n')) {
    const marker = FENCE_LINE.exec(line)?.[1];
    if (marker === undefined) continue;
    if (open === undefined) open = marker;
    else if (marker[0] === open[0] && marker.length >= open.length && /^ {0,3}[`~]+\s*$/.test(line)) open = undefined;
  }
  return open === undefined;
}

/** The text with fence lines and all whitespace removed: what splitting must keep, in order. */
function essence(text: string): string {
  return text
    .split('\n')
    .filter((line) => !FENCE_LINE.test(line))
    .join('')
    .replace(/\s+/g, '');
}

function checkInvariants(text: string, limit: number, chunks: string[]): void {
  for (const chunk of chunks) {
    expect(chunk.length).toBeLessThanOrEqual(limit);
    expect(chunk.trim()).not.toBe('');
  }
  expect(essence(chunks.join('\n'))).toBe(essence(text));
}

/** A small deterministic PRNG (mulberry32), so failures reproduce. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'telegram', 'gateway', 'x', 'hermes', 'ok', '😀', 'naïve'];

function prose(random: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i += 1) {
    out.push(WORDS[Math.floor(random() * WORDS.length)] ?? 'w');
    if (random() < 0.08) out.push('\n');
  }
  return out.join(' ').replace(/ \n /g, '\n');
}

function code(random: () => number, lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i += 1)
    out.push(`  const v${i} = compute(${Math.floor(random() * 1000)}); // ${'#'.repeat(i % 7)}`);
  return out.join('\n');
}

/** A ~`size`-character document of paragraphs, lists and fenced code. */
function mixedDocument(seed: number, size: number): string {
  const random = rng(seed);
  const blocks: string[] = [];
  let length = 0;
  while (length < size) {
    const pick = random();
    const block =
      pick < 0.45
        ? prose(random, 20 + Math.floor(random() * 120))
        : pick < 0.6
          ? ['- one item', '- two items', '  - nested item'].join('\n')
          : `\`\`\`${random() < 0.5 ? 'ts' : 'python'}\n${code(random, 3 + Math.floor(random() * 90))}\n\`\`\``;
    blocks.push(block);
    length += block.length + 2;
  }
  return blocks.join('\n\n');
}

describe('splitMessage: the easy cases', () => {
  it('returns short text unchanged, as one chunk', () => {
    expect(splitMessage('hello', 10)).toEqual(['hello']);
    expect(splitMessage('exactly10!', 10)).toEqual(['exactly10!']);
  });

  it('returns no chunks for empty or blank text', () => {
    expect(splitMessage('', 10)).toEqual([]);
    expect(splitMessage(' \n\n  ', 10)).toEqual([]);
  });

  it('rejects a limit that is not a positive integer', () => {
    expect(() => splitMessage('x', 0)).toThrow(RangeError);
    expect(() => splitMessage('x', 2.5)).toThrow(RangeError);
  });
});

describe('splitMessage: boundaries', () => {
  it('prefers a paragraph break over a later line break', () => {
    const text = 'first paragraph\n\nsecond line one\nsecond line two';
    expect(splitMessage(text, 40)).toEqual(['first paragraph', 'second line one\nsecond line two']);
  });

  it('falls back to line breaks, dropping only the newline', () => {
    const text = 'line one is here\nline two is here\nline three';
    expect(splitMessage(text, 35)).toEqual(['line one is here\nline two is here', 'line three']);
  });

  it('keeps the indentation of the line after a cut', () => {
    const text = 'aaaa aaaa aaaa\n    indented line';
    expect(splitMessage(text, 20)).toEqual(['aaaa aaaa aaaa', '    indented line']);
  });

  it('drops several blank lines at a paragraph cut', () => {
    expect(splitMessage('one two three\n\n\n\nfour five six', 16)).toEqual(['one two three', 'four five six']);
  });

  it('falls back to word boundaries inside a long line', () => {
    const chunks = splitMessage('the quick brown fox jumps over the lazy dog', 15);
    expect(chunks).toEqual(['the quick brown', 'fox jumps over', 'the lazy dog']);
  });

  it('hard-cuts a word longer than the limit', () => {
    expect(splitMessage('abcdefghijklmnopqrstuvwxyz', 10)).toEqual(['abcdefghij', 'klmnopqrst', 'uvwxyz']);
  });

  it('does not cut inside a surrogate pair', () => {
    const chunks = splitMessage('😀😀😀', 3);
    expect(chunks).toEqual(['😀', '😀', '😀']);
  });

  it('handles CRLF line ends', () => {
    expect(splitMessage('first part\r\n\r\nsecond part', 14)).toEqual(['first part', 'second part']);
  });
});

describe('splitMessage: code fences', () => {
  it('cuts before a fence rather than inside it', () => {
    const text = 'intro text\n```js\nconst a = 1;\nconst b = 2;\n```\nafter';
    const chunks = splitMessage(text, 45);
    expect(chunks).toEqual(['intro text', '```js\nconst a = 1;\nconst b = 2;\n```\nafter']);
  });

  it('closes and reopens a fence that must be split, keeping the info string', () => {
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i}`);
    const text = `\`\`\`python\n${lines.join('\n')}\n\`\`\``;
    const chunks = splitMessage(text, 40);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(40);
      expect(chunk.startsWith('```python\n')).toBe(true);
      expect(chunk.endsWith('\n```')).toBe(true);
      expect(fencesBalanced(chunk)).toBe(true);
    }
    const body = chunks.map((chunk) => chunk.slice('```python\n'.length, -'\n```'.length)).join('\n');
    expect(body).toBe(lines.join('\n'));
  });

  it('keeps a fence with a longer marker and tildes intact', () => {
    const text = `~~~~\n${'word '.repeat(30).trim()}\n~~~~`;
    const chunks = splitMessage(text, 50);
    for (const chunk of chunks) {
      expect(chunk.startsWith('~~~~\n')).toBe(true);
      expect(chunk.endsWith('\n~~~~')).toBe(true);
      expect(chunk.length).toBeLessThanOrEqual(50);
    }
    checkInvariants(text, 50, chunks);
  });

  it('hard-cuts a giant code line and still repairs the fence', () => {
    const text = `\`\`\`\n${'x'.repeat(100)}\n\`\`\``;
    const chunks = splitMessage(text, 30);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(30);
      expect(fencesBalanced(chunk)).toBe(true);
    }
    expect(chunks.join('').replace(/`|\n/g, '')).toBe('x'.repeat(100));
  });

  it('treats backticks in the middle of a line as text, not a fence', () => {
    const text = 'use ``` to open a fence\n\nmore text here';
    expect(splitMessage(text, 25)).toEqual(['use ``` to open a fence', 'more text here']);
  });

  it('gives up fence repair, but not the limit, when the limit is too small for it', () => {
    const text = '```typescript\nabcdefghij\n```';
    const chunks = splitMessage(text, 8);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(8);
    expect(chunks.join('').replace(/\n/g, '')).toBe(text.replace(/\n/g, ''));
  });
});

describe('splitMessage: a large mixed document', () => {
  it('splits 10,000 characters with fences at 4096: within the limit, balanced, nothing lost', () => {
    // a fence of ~5,000 characters cannot fit one chunk, so it must be closed and reopened
    const bigFence = `\`\`\`ts\n${code(rng(1), 140)}\n\`\`\``;
    const text = [mixedDocument(42, 3_500), bigFence, mixedDocument(43, 1_500)].join('\n\n');
    expect(bigFence.length).toBeGreaterThan(4096);
    expect(text.length).toBeGreaterThanOrEqual(10_000);
    const chunks = splitMessage(text, 4096);
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    for (const chunk of chunks) expect(fencesBalanced(chunk)).toBe(true);
    checkInvariants(text, 4096, chunks);
    const reopened = chunks.filter((chunk) => chunk.startsWith('```ts\n  const v'));
    expect(reopened.length).toBeGreaterThanOrEqual(2);
  });

  it('holds the invariants across many random documents and limits', () => {
    for (let seed = 1; seed <= 60; seed += 1) {
      const text = mixedDocument(seed, 1_000 + seed * 97);
      const limit = 80 + ((seed * 131) % 900);
      const chunks = splitMessage(text, limit);
      checkInvariants(text, limit, chunks);
      for (const chunk of chunks) expect(fencesBalanced(chunk), `seed ${seed}`).toBe(true);
    }
  });

  it('is fast: a megabyte in well under a second', () => {
    const text = mixedDocument(7, 1_000_000);
    const started = performance.now();
    const chunks = splitMessage(text, 4096);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(chunks.length).toBeGreaterThan(200);
  });
});
